// Right on a GPU: the naive kernel, and a launcher that first prints some of
// the device's limits, one of them a texture limit (cudaDeviceProp's
// maxTexture2D), which the simulator, having no textures, does not present.
// nvcc compiles the file; the simulator's compiler does not.
#include "lab.h"
#include <cstdio>

__global__ void naive(const float *A, const float *B, float *C, int n)
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
    static bool told = false;
    if (!told) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, 0);
        printf("%s: %d SMs, 2-D textures up to %d x %d\n", prop.name, prop.multiProcessorCount,
               prop.maxTexture2D[0], prop.maxTexture2D[1]);
        told = true;
    }
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
