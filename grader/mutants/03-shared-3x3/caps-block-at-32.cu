// Mutant of 03-shared-3x3: matmul caps the block at 32 x 32 (and the size
// it multiplies at 32) instead of letting CUDA refuse the launch, so for
// n = 33 it returns a partial, wrong C where the stage asks for the launch
// to be refused with cudaErrorInvalidConfiguration. Every n up to 32 is
// unaffected.
// targets: n=33 refused
#include "lab.h"

#define MAX_N 32  // 32 x 32 = 1024 threads, the most one block can hold

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    As[row * n + col] = A[row * n + col];
    Bs[row * n + col] = B[row * n + col];

    __syncthreads();

    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    // MUTANT: n = 33 should be launched as it is (1089 threads) and refused
    int m = n > MAX_N ? MAX_N : n;
    dim3 grid(1, 1);
    dim3 block(m, m);
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, m);
}
