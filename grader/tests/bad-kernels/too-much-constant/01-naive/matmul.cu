#include "lab.h"

// A and B staged in constant memory: 2 x 64 KiB, past the 64 KiB a GPU has.
__constant__ float cA[128 * 128], cB[128 * 128];

__global__ void from_constant(float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float s = 0;
    for (int k = 0; k < n; ++k) s += cA[row * n + k] * cB[k * n + col];
    C[row * n + col] = s;
}

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float s = 0;
    for (int k = 0; k < n; ++k) s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    if (n <= 128) {
        cudaMemcpyToSymbol(cA, A, sizeof(float) * n * n, 0, cudaMemcpyDeviceToDevice);
        cudaMemcpyToSymbol(cB, B, sizeof(float) * n * n, 0, cudaMemcpyDeviceToDevice);
        from_constant<<<grid, block>>>(C, n);
    } else {
        naive<<<grid, block>>>(A, B, C, n);
    }
}
