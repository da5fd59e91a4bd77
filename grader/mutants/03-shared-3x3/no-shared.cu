// Mutant of 03-shared-3x3: skips the stage's idea. A correct one-block
// product that reads A and B straight from global memory in the dot
// product: every element is loaded n times instead of once, and shared
// memory is never used.
// targets: loaded once (n=3); loaded once (n=32); shared memory used
#include "lab.h"

#define MAX_N 32  // 32 x 32 = 1024 threads, the most one block can hold

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    int col = threadIdx.x;
    int row = threadIdx.y;

    // MUTANT: no shared arrays, no loads into them, no barrier
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
