// Mutant of 04-tiled: a barrier in divergent code. The edge threads, whose
// A element lies outside the matrix, take a branch of their own for the
// load and the dot product, with its own __syncthreads(): the threads of
// one block wait at different barriers. CUDA requires every thread of a
// block to reach the same __syncthreads() (anything else is undefined
// behaviour); the simulator releases both groups together, so the product
// is right, and only check mode sees it. Whole tiles are not affected.
// targets: barriers (TILE=32)
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
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        // MUTANT: two branches, each with its own first barrier
        if (row < n && a_col < n) {
            As[ty][tx] = A[row * n + a_col];
            __syncthreads();
            for (int k = 0; k < TILE; ++k)
                sum += As[ty][k] * Bs[k][tx];
        } else {
            As[ty][tx] = 0.0f;
            __syncthreads();
            for (int k = 0; k < TILE; ++k)
                sum += Bs[k][tx] * As[ty][k];
        }

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
