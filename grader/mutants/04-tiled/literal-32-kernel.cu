// Mutant of 04-tiled: the kernel hard-codes 32 (its shared tiles, its
// block corner and its phase loop) while the launch uses TILE. Built with
// -DTILE=32 it is right; with -DTILE=16 the 16 x 16 blocks fill only a
// quarter of each 32-wide tile and cover only part of C.
// targets: TILE=16 n=100
#include "lab.h"

// The grader rebuilds this file with -DTILE=16 and -DTILE=32.
#ifndef TILE
#define TILE 32
#endif

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    // MUTANT: 32 where TILE belongs
    __shared__ float As[32][32];
    __shared__ float Bs[32][32];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * 32 + tx;
    int row = blockIdx.y * 32 + ty;

    float sum = 0.0f;
    int phases = (n + 31) / 32;
    for (int t = 0; t < phases; ++t) {
        int a_col = t * 32 + tx;
        int b_row = t * 32 + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        __syncthreads();

        for (int k = 0; k < 32; ++k)
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
