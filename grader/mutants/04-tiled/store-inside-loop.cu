// Mutant of 04-tiled: the store to C is inside the phase loop, so each
// element of C is written once per phase (the last write is the right
// value, so every size passes), where it should be written once.
// targets: one store per element
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
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];

        __syncthreads();

        // MUTANT: belongs after the loop
        if (row < n && col < n)
            C[row * n + col] = sum;
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
