// Bad kernel: the naive kernel with a device-side assert() of a belief that
// is wrong, that n is a multiple of the block's 16. Where it holds, the
// kernel is right. Where it does not, a GPU stops the kernel
// (cudaErrorAssert, "device-side assert triggered") and the simulator the
// program (abort, signal 6); either way the assertion's text says why.
#include <cassert>

#include "lab.h"

__global__ void naive_multiple_of_16(const float *A, const float *B, float *C, int n)
{
    assert(n % 16 == 0);
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive_multiple_of_16<<<grid, block>>>(A, B, C, n);
}
