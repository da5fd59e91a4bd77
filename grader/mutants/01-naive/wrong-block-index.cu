// Mutant of 01-naive: the row is taken from blockIdx.x instead of
// blockIdx.y, so blocks (bx, by) and (bx, by') compute the same elements
// and only the diagonal blocks of C are ever written. With one block
// (n <= 16) nothing shows; every larger size leaves NaN in C.
// targets: n=31; n=33; n=64
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.x * blockDim.y + threadIdx.y;  // MUTANT: should be blockIdx.y

    if (row >= n || col >= n)
        return;

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
