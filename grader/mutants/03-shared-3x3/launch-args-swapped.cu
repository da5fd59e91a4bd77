// Mutant of 03-shared-3x3: grid and block swapped in the launch,
// <<<block, grid>>>: n x n blocks of one thread each, so every block's lone
// thread is (0, 0) and only C[0][0] is ever written. n = 1 cannot tell.
// targets: n=2; n=3
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
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_one_block_kernel<<<block, grid>>>(A, B, C, n);  // MUTANT: should be <<<grid, block>>>
}
