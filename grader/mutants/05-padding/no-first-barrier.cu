// Mutant of 05-padding: the first __syncthreads() of each phase (after the
// tile loads) is missing: threads read tile elements others have not
// stored yet (on the simulator: what the previous phase or block left).
// Wrong results; the barrier test fails too (its check run gets the wrong
// result before it counts hazards).
// targets: barriers
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
        As[tx][ty] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // MUTANT: no __syncthreads() here

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
