// Right on a GPU: the kernel launched with cudaLaunchKernelEx and a launch
// configuration (cudaLaunchConfig_t), the API that also takes launch
// attributes, which the simulator does not provide.  The grader must say
// that the kit cannot build this file, and which backend can, never call
// it the student's compile error.
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
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 15) / 16, (n + 15) / 16);
    config.blockDim = dim3(16, 16);
    CUDA_CHECK(cudaLaunchKernelEx(&config, naive, A, B, C, n));
}
