// Wrong on a GPU, right on the simulator: split-k, each of two blocks per
// tile of C adding its half of the dot product with atomicAdd_block.  An
// atomic of block scope is atomic only among the threads of one block, so
// the two blocks' updates of C[i] are not ordered with each other on a GPU
// (CUDA's memory model calls it a data race, and a half may be lost); the
// simulator's atomics are atomic everywhere and get every size right.
// Check mode must find the race between blocks and say the scope is why.
#include "lab.h"

__global__ void zero(float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * n)
        C[i] = 0.0f;
}

__global__ void add_half(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    int half = (n + 1) / 2, k_begin = blockIdx.z * half, k_end = min(n, k_begin + half);
    float partial = 0.0f;
    for (int k = k_begin; k < k_end; ++k)
        partial += A[row * n + k] * B[k * n + col];
    atomicAdd_block(&C[row * n + col], partial);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    zero<<<(n * n + 255) / 256, 256>>>(C, n);
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16, 2);
    add_half<<<grid, block>>>(A, B, C, n);
}
