// Stage 04 with its tiles filled by memcpy, CUDA's device-side copy: a
// block's threads copy whole rows of each tile, four floats at a time,
// where the row lies inside the matrix, and zero-fill the rest.  The edge
// columns (n not a multiple of 4) are copied a float at a time.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__global__ void tiled_by_memcpy(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t0 = 0; t0 < n; t0 += TILE) {
        // One thread in four copies four floats of its tile row (or zeroes
        // what lies outside the matrix).
        if (tx % 4 == 0) {
            int a_col = t0 + tx, b_row = t0 + ty, b_col = blockIdx.x * TILE + tx;
            int a_left = row < n ? min(4, max(0, n - a_col)) : 0;
            int b_left = b_row < n ? min(4, max(0, n - b_col)) : 0;
            memset(&As[ty][tx], 0, 4 * sizeof(float));
            memset(&Bs[ty][tx], 0, 4 * sizeof(float));
            if (a_left > 0)
                memcpy(&As[ty][tx], &A[(size_t)row * n + a_col], a_left * sizeof(float));
            if (b_left > 0)
                memcpy(&Bs[ty][tx], &B[(size_t)b_row * n + b_col], b_left * sizeof(float));
        }
        __syncthreads();  // the tiles are whole before anyone reads them
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done reading before the next copy
    }
    if (row < n && col < n)
        C[(size_t)row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tiled_by_memcpy<<<grid, block>>>(A, B, C, n);
}
