// Mutant of 04-tiled: swapped indices. The B tile is stored transposed
// (Bs[tx][ty]) but read as if it were not (Bs[k][tx]), so each phase
// multiplies by the transpose of B's tile. Only n = 1 cannot tell.
// targets: TILE=16 n=31
#include "lab.h"

// The grader rebuilds this file with -DTILE=16 and -DTILE=32.
#ifndef TILE
#define TILE 32
#endif

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
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
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[tx][ty] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;  // MUTANT: should be Bs[ty][tx]

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
