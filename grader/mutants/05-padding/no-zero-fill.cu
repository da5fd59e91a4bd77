// Mutant of 05-padding: a missing edge guard on the loads. The tiles are
// filled straight from A and B with no zero-fill, so a partial last tile
// reads past the ends of the rows (wrong values) and past the end of B
// (out of bounds). n = 64, two whole tiles, passes.
// targets: n=33
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

    float sum = 0.0f;
    int phases = (n + TILE - 1) / TILE;
    for (int t = 0; t < phases; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        // MUTANT: no zero-fill for the elements outside the matrix
        As[tx][ty] = A[row * n + a_col];
        Bs[ty][tx] = B[b_row * n + col];

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
