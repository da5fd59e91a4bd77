// Correct: B copied into a pitched allocation (each row starting on the
// device's preferred boundary) with cudaMallocPitch and cudaMemcpy2D, and
// read from there.  A copy from device to device is no copy to the host:
// full marks on either backend.
#include "lab.h"

__global__ void naive_pitched(const float *A, const float *B, size_t b_pitch, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        const float *b_row = (const float *)((const char *)B + k * b_pitch);
        sum += A[row * n + k] * b_row[col];
    }
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    float *pitched;
    size_t pitch;
    CUDA_CHECK(cudaMallocPitch((void **)&pitched, &pitch, n * sizeof(float), n));
    CUDA_CHECK(cudaMemcpy2D(pitched, pitch, B, n * sizeof(float), n * sizeof(float), n, cudaMemcpyDeviceToDevice));
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive_pitched<<<grid, block>>>(A, pitched, pitch, C, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(pitched));
}
