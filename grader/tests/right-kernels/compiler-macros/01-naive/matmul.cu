// Right on a GPU and on the simulator: code that asks which compiler, and
// which pass of it, is reading the file.  The launch is hidden behind
// __CUDACC__ from an editor that parses the file as C++ (a trick passed
// round for Visual Studio's IntelliSense), the kernel's body is compiled
// only for the device (`__CUDA_ARCH__`, whose host pass makes an empty
// stub), and a __host__ __device__ helper takes its device branch there.
// nvcc defines these macros; the simulator must too, or the kernel does
// nothing (and the launch is a plain call) and a right kernel scores 0.
#include "lab.h"

#ifdef __CUDACC__
#define KERNEL_ARGS2(grid, block) <<<grid, block>>>
#else
#define KERNEL_ARGS2(grid, block)
#endif

__host__ __device__ inline float multiply_add(float a, float b, float c)
{
#ifdef __CUDA_ARCH__
    return __fmaf_rn(a, b, c);
#else
    return a * b + c;
#endif
}

__global__ void naive(const float *A, const float *B, float *C, int n)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 500
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum = multiply_add(A[row * n + k], B[k * n + col], sum);
    C[row * n + col] = sum;
#endif
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive KERNEL_ARGS2(grid, block)(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
