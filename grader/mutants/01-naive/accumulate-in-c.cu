// Mutant of 01-naive: an uninitialised accumulator. The sum is kept in C
// itself (C[row][col] += ...) and nothing zeroes C first. The kit fills C
// with NaN before calling matmul (on a GPU it holds whatever cudaMalloc
// left there), so every element comes out NaN; this form fails reliably,
// unlike a local "float sum;" that may happen to start at 0.
// targets: n=1; n=16; n=100
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row >= n || col >= n)
        return;

    // MUTANT: no "float sum = 0.0f": C, never cleared, is the accumulator
    for (int k = 0; k < n; ++k)
        C[row * n + col] += A[row * n + k] * B[k * n + col];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(BLOCK, BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
