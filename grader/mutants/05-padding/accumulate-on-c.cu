// Mutant of 05-padding: an accumulator that starts from a wrong value: the
// sum starts from C[row][col] instead of 0, as if C were already zero. The
// kit fills C with NaN before calling matmul (on a GPU it holds whatever
// cudaMalloc left), so every element comes out NaN: this fails reliably,
// unlike a local "float sum;" that may happen to start at 0.
// targets: n=1
#include "lab.h"

#define TILE 32  // fixed in this stage

__global__ void matmul_padded_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE + 1];  // the A tile, transposed and padded
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;

    float sum = (row < n && col < n) ? C[row * n + col] : 0.0f;  // MUTANT: should be 0.0f
    int phases = (n + TILE - 1) / TILE;
    for (int t = 0; t < phases; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[tx][ty] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[k][ty] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_padded_kernel<<<grid, block>>>(A, B, C, n);
}
