// Mutant of 04-tiled: a hard-coded TILE that ignores -DTILE: the file
// redefines TILE as 32, so the grader's TILE=16 build is really a TILE=32
// build. Every product is right, but the TILE=16 build makes the loads
// per thread of 32-wide tiles.
// targets: loads per thread (TILE=16)
#include "lab.h"

// MUTANT: should only be a default, #ifndef TILE ... #endif
#undef TILE
#define TILE 32

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
