// Correct stage 06 shaped unlike the solution: B's tile kept transposed in
// a flat array with no padding, word k of row c stored at column k ^ c, so
// neither the stores (one k, every c) nor the reads (one k, every c) put
// two lanes in one bank.  Swizzling either tile is the stage's idea.
#include "lab.h"

#define TILE 32

__global__ void swizzled_b(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bt[TILE * TILE];  // Bt[c * TILE + (k ^ c)] = B[k][c] of the tile
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[ty * TILE + tx] = row < n && a_col < n ? A[row * n + a_col] : 0.0f;
        Bt[tx * TILE + (ty ^ tx)] = b_row < n && col < n ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty * TILE + k] * Bt[tx * TILE + (k ^ tx)];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    swizzled_b<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
