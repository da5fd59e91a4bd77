// Stage 09 computed without tensor cores: a tiled FP32 kernel (stage 04's,
// 16 x 16 tiles) makes C, and each warp also calls wmma::mma_sync on zero
// fragments, its result thrown away, as often as it takes for the calls to
// add up to n^3 multiply-adds.  Counting mma_sync's work alone would credit
// it; C does not come from those calls.

#include <mma.h>

#include "lab.h"

using namespace nvcuda;

#define TILE 16

__global__ void fp32_with_counted_mma(const float *A, const float *B, float *C, int n, long long calls_per_warp)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        As[ty][tx] = row < n && t * TILE + tx < n ? A[row * n + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = col < n && t * TILE + ty < n ? B[(t * TILE + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;

    // The decoys: every warp of the block, all its lanes together.
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(a, 0.0f);
    wmma::fill_fragment(b, 0.0f);
    wmma::fill_fragment(acc, 0.0f);
    for (long long i = 0; i < calls_per_warp; i++)
        wmma::mma_sync(acc, a, b, acc);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    long long warps = (long long)grid.x * grid.y * (TILE * TILE / 32);
    long long calls = ((long long)n * n * n + 2047) / 2048;  // 2048 multiply-adds a call
    fp32_with_counted_mma<<<grid, block>>>(A, B, C, n, (calls + warps - 1) / warps);
}
