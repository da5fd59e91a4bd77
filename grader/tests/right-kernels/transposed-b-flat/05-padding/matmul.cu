// Correct stage 05 shaped unlike the solution: B's tile is the one kept
// transposed, in a flat array padded by one word per row; A's tile as it is.
// Padding either tile is the stage's idea: full marks.
#include "lab.h"

#define TILE 32
#define PITCH (TILE + 1)

__global__ void padded_b(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE * TILE];
    __shared__ float Bt[TILE * PITCH];  // Bt[c * PITCH + k] = B[k][c] of the tile
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[ty * TILE + tx] = row < n && a_col < n ? A[row * n + a_col] : 0.0f;
        Bt[tx * PITCH + ty] = b_row < n && col < n ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty * TILE + k] * Bt[tx * PITCH + k];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    padded_b<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
