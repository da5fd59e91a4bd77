// Mutant of 01-naive: no edge guard. The grid is rounded up to whole
// 16x16 blocks, and the threads that hang over the matrix read and write
// past its end. Passes when n is a multiple of 16 (16, 64), fails the
// others.
// targets: n=1; n=31; n=33; n=100
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    // MUTANT: the guard "if (row >= n || col >= n) return;" is missing

    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(BLOCK, BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
