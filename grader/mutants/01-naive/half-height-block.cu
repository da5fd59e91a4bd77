// Mutant of 01-naive: the block is 16 x 8 but the grid is sized for
// 16 x 16 blocks (the kernel uses blockDim, as it should), so the grid
// covers only the top half of C's rows and the rest stays unwritten.
// Sizes up to 8 fit in the first band of 8 rows and pass.
// targets: n=16; n=64; n=100
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
    dim3 block(BLOCK, BLOCK / 2);  // MUTANT: should be (BLOCK, BLOCK), as the grid assumes
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
