// Right on a GPU: the kernel launched through the runtime API,
// cudaLaunchKernel with an array of pointers to its arguments, not with
// <<<...>>>.  The simulator runs only launches it can see in the source, so
// the grader must say that the kit cannot build this file, and which
// backend can, never call it the student's compile error.
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
    void *args[] = {&A, &B, &C, &n};
    CUDA_CHECK(cudaLaunchKernel((const void *)naive, grid, block, args, 0, 0));
}
