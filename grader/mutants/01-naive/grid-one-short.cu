// Mutant of 01-naive: the ceiling division is off by one,
// (n + BLOCK - 2) / BLOCK, one block short whenever n is one past a
// multiple of 16 (n = 1: an empty grid, refused; n = 33 and 257: the last
// row and column of C stay unwritten). Every other size passes, which is
// why the grader has the one-element-edge sizes.
// targets: n=1; n=33; n=257
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

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
    // MUTANT: should be (n + BLOCK - 1) / BLOCK
    dim3 grid((n + BLOCK - 2) / BLOCK, (n + BLOCK - 2) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
