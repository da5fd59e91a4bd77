// Mutant of 02-shared-2x2: skips the stage's idea. A correct product that
// reads A and B straight from global memory in the dot product (the naive
// kernel inside one block), so each element is loaded n times, not once,
// and shared memory is never used.
// targets: loaded once; shared memory used
#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
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
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
