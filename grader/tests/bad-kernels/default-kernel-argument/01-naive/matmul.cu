// Right on a GPU: the kernel's last parameter has a default argument, and
// the launch leaves it out, which nvcc fills in.  The simulator knows a
// launched kernel by its address alone, which carries no defaults: the
// grader must call that the kit's limit and name the backend that can
// grade it, never the student's compile error.
#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n, int row_offset = 0)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y + row_offset, col = blockIdx.x * blockDim.x + threadIdx.x;
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
    CUDA_CHECK(cudaGetLastError());
}
