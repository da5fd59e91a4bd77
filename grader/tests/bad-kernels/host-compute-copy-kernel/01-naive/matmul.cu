// Hides a host computation behind a kernel: A and B go to the host, the
// product is made there and uploaded to a scratch buffer, and a kernel
// copies that buffer into C.  Every element of C is stored by a kernel, but
// the kernel computed nothing.
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
    int count = n * n;
    size_t bytes = (size_t)count * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    CUDA_CHECK(cudaMemcpy(a, A, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, B, bytes, cudaMemcpyDeviceToHost));
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++)
                sum += a[row * n + k] * b[k * n + col];
            c[row * n + col] = sum;
        }
    float *scratch;
    CUDA_CHECK(cudaMalloc((void **)&scratch, bytes));
    CUDA_CHECK(cudaMemcpy(scratch, c, bytes, cudaMemcpyHostToDevice));
    copy_kernel<<<(count + 255) / 256, 256>>>(scratch, C, count);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(scratch));
    free(a);
    free(b);
    free(c);
}
