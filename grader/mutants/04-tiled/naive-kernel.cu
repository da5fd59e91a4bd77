// Mutant of 04-tiled: skips the stage's idea. A correct kernel with the
// TILE x TILE launch but no tiles: each thread reads its row of A and
// column of B straight from global memory, 2n loads instead of
// 2 * ceil(n / TILE).
// targets: loads per element (TILE=16); loads per element (TILE=32)
#include "lab.h"

// The grader rebuilds this file with -DTILE=16 and -DTILE=32.
#ifndef TILE
#define TILE 32
#endif

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;

    // MUTANT: no shared tiles, no phases
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
