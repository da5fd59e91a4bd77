// A right kernel up to n = 100, where a check build of the file looks;
// above it, the product is made on the host (A and B copied there) and
// copied into C.  Only a ledger kept by the run itself, at the size it
// runs, sees the second half: the simulator's, and the GPU build's
// (grader/gpu_ledger.cpp).
#include <stdlib.h>

#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    if (n <= 100) {
        dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
        naive<<<grid, block>>>(A, B, C, n);
        return;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
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
    CUDA_CHECK(cudaMemcpy(C, c, bytes, cudaMemcpyHostToDevice));
    free(a);
    free(b);
    free(c);
}
