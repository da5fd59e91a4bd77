// A right kernel saved under another name (MatMul.cu): only matmul.cu is
// graded, and the grader must say which file it found instead.
#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
