// A right kernel with a debugging printf left in every thread: millions of
// lines at n = 1000.  A GPU's printf buffer keeps what fits and drops the
// rest; the grader keeps the first 8 MiB of output and grades the result,
// never killing the program for talking too much.
#include <stdio.h>

#include "lab.h"

__global__ void matmul_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    printf("thread (%d, %d) of block (%d, %d): C[%d][%d] = %f\n", (int)threadIdx.x, (int)threadIdx.y,
           (int)blockIdx.x, (int)blockIdx.y, row, col, sum);
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    matmul_kernel<<<grid, block>>>(A, B, C, n);
}
