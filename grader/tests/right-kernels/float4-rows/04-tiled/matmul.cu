// Correct stage 04, shaped unlike the solution: TILE x TILE tiles, but
// blocks of TILE/4 x TILE threads, each loading four elements of each tile
// and computing four neighbouring elements of a row of C, which it stores
// as one float4 when n is a multiple of 4 (a vectorized epilogue).  Every
// element of C is still stored once, after the last phase.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__global__ void matmul_tiled_float4_store(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;  // tx: which group of four columns
    int row = blockIdx.y * TILE + ty, col0 = blockIdx.x * TILE + 4 * tx;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        for (int j = 0; j < 4; ++j) {
            int a_col = t * TILE + 4 * tx + j, b_row = t * TILE + ty, b_col = col0 + j;
            As[ty][4 * tx + j] = row < n && a_col < n ? A[row * n + a_col] : 0.0f;
            Bs[ty][4 * tx + j] = b_row < n && b_col < n ? B[b_row * n + b_col] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            for (int j = 0; j < 4; ++j)
                sum[j] += As[ty][k] * Bs[k][4 * tx + j];
        __syncthreads();
    }
    if (row >= n)
        return;
    if (n % 4 == 0 && col0 + 3 < n) {
        *reinterpret_cast<float4 *>(&C[row * n + col0]) = make_float4(sum[0], sum[1], sum[2], sum[3]);
    } else {
        for (int j = 0; j < 4 && col0 + j < n; ++j)
            C[row * n + col0 + j] = sum[j];
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE / 4, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_float4_store<<<grid, block>>>(A, B, C, n);
}
