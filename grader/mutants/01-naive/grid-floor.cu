// Mutant of 01-naive: the grid is n / BLOCK blocks per side, rounded down,
// so the partial blocks at the right and bottom edges are never launched
// and those elements of C stay unwritten (NaN); for n < 16 the grid is
// empty and the launch is refused. Multiples of 16 still pass.
// targets: n=1; n=31; n=33; n=1000
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
    dim3 grid(n / BLOCK, n / BLOCK);  // MUTANT: should round up, (n + BLOCK - 1) / BLOCK
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
