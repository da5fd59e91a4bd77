// Right answers, wrong means: transposes B in place (so that a thread's
// reads of B walk a row), computes C from the transposed B, and leaves B
// transposed.  Every C is right; the inputs are not what they were.
#include "lab.h"

__global__ void transpose_in_place(float *B, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n && row < col) {
        float t = B[row * n + col];
        B[row * n + col] = B[col * n + row];
        B[col * n + row] = t;
    }
}

__global__ void product_with_transposed_b(const float *A, const float *Bt, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * Bt[col * n + k];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    transpose_in_place<<<grid, block>>>(const_cast<float *>(B), n);
    product_with_transposed_b<<<grid, block>>>(A, B, C, n);
}
