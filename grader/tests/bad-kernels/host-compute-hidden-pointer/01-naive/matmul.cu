// Stage 01 done on the host, the host memory hidden from the ledger: the
// kernels that carry A and B out and the product back in are given their
// host buffer inside a structure, not as a pointer argument.  The size
// tests cannot see it (the README says so); check mode counts every access
// to host memory, so no structural test credits it.
#include <stdlib.h>

#include "lab.h"

struct buffer {
    float *at;
};

__global__ void carry_out(const float *from, buffer to, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        to.at[i] = from[i];
}

__global__ void carry_in(buffer from, float *to, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        to[i] = from.at[i];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    buffer a, b, c;
    CUDA_CHECK(cudaMallocHost(&a.at, bytes));
    CUDA_CHECK(cudaMallocHost(&b.at, bytes));
    CUDA_CHECK(cudaMallocHost(&c.at, bytes));
    unsigned blocks = (unsigned)((count + 255) / 256);
    carry_out<<<blocks, 256>>>(A, a, (int)count);
    carry_out<<<blocks, 256>>>(B, b, (int)count);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (size_t i = 0; i < count; i++)
        c.at[i] = 0;
    for (int row = 0; row < n; row++)
        for (int k = 0; k < n; k++)
            for (int col = 0; col < n; col++)
                c.at[row * n + col] += a.at[row * n + k] * b.at[k * n + col];
    carry_in<<<blocks, 256>>>(c, C, (int)count);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFreeHost(a.at));
    CUDA_CHECK(cudaFreeHost(b.at));
    CUDA_CHECK(cudaFreeHost(c.at));
}
