// Mutant of 01-naive: the edge guard is off by one (row > n instead of
// row >= n), so the threads of row n and column n, just past the matrix,
// compute and store too: row n writes past the end of C, column n
// overwrites the first element of the next row. Sizes that fill whole
// blocks (16, 64) have no such thread and still pass.
// targets: n=1; n=31; n=33; n=100
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row > n || col > n)  // MUTANT: should be row >= n || col >= n
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
