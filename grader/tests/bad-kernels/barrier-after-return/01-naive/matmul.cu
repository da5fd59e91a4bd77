// Threads outside the matrix return, then the rest wait at a barrier those
// threads will never reach.
#include "lab.h"

__global__ void early_return(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    __syncthreads();
    float acc = 0;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    early_return<<<grid, block>>>(A, B, C, n);
}
