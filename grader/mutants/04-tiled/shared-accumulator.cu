// Mutant of 04-tiled: an uninitialised accumulator. Each thread sums into
// its slot of a __shared__ tile that nothing zeroes. On the simulator
// static shared memory starts at 0, so the very first block happens to be
// right; every later block run by the same OS thread (and every later
// launch: three random inputs per size) starts from the sums the previous
// block left, so it fails reliably. On a GPU shared memory starts with any
// old contents.
// targets: TILE=32 n=100
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

    __shared__ float Cs[TILE][TILE];  // MUTANT: the accumulator, never zeroed
    int phases = (n + TILE - 1) / TILE;
    for (int t = 0; t < phases; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            Cs[ty][tx] += As[ty][k] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = Cs[ty][tx];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
