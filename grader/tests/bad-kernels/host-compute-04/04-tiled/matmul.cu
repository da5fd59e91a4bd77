// Stage 04 done on the host: A and B go to the host, the product is made
// there with the loop order of the CPU reference and uploaded to a scratch
// buffer, and a kernel copies it into C.  That kernel loads each element
// once and stores each element of C once, with no shared memory and so no
// hazards: on its counts alone it would pass stage 04's structural tests.
// Nothing it returns may count.
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
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)calloc(count, sizeof(float));
    CUDA_CHECK(cudaMemcpy(a, A, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, B, bytes, cudaMemcpyDeviceToHost));
    for (int row = 0; row < n; row++)
        for (int k = 0; k < n; k++)
            for (int col = 0; col < n; col++)
                c[row * n + col] += a[row * n + k] * b[k * n + col];
    float *scratch;
    CUDA_CHECK(cudaMalloc(&scratch, bytes));
    CUDA_CHECK(cudaMemcpy(scratch, c, bytes, cudaMemcpyHostToDevice));
    copy_kernel<<<(unsigned)((count + 255) / 256), 256>>>(scratch, C, (int)count);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(scratch));
    free(a);
    free(b);
    free(c);
}
