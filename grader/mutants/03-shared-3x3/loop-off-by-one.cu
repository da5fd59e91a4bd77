// Mutant of 03-shared-3x3: the dot product runs k <= n, one step too far,
// reading shared slots past the n x n product (Bs[n * n + col], and for
// n = 32 past the end of Bs). The simulator's static shared memory starts
// at 0, so the extra term may be 0 and the size tests pass; check mode
// reports the reads of shared memory nothing wrote, under "barrier".
// targets: barrier
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
    for (int k = 0; k <= n; ++k)  // MUTANT: should be k < n
        sum += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
