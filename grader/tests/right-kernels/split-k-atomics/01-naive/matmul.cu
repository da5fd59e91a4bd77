// Correct, and shaped unlike the solution: split-K.  The grid's z
// dimension cuts each dot product into slices; every slice's partial sum
// is added into C with atomicAdd, C zeroed first with cudaMemset.  An
// atomic is the store that writes C here: the grader must count it as one.
#include "lab.h"

#define BLOCK 16
#define SLICES 4

__global__ void matmul_split_k(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    int per_slice = (n + SLICES - 1) / SLICES;
    int k_begin = blockIdx.z * per_slice, k_end = min(n, k_begin + per_slice);
    float partial = 0.0f;
    for (int k = k_begin; k < k_end; ++k)
        partial += A[row * n + k] * B[k * n + col];
    atomicAdd(&C[row * n + col], partial);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    cudaMemset(C, 0, sizeof(float) * n * n);
    dim3 block(BLOCK, BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK, SLICES);
    matmul_split_k<<<grid, block>>>(A, B, C, n);
}
