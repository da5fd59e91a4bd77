// Mutant of 02-shared-2x2: the dot product loops to a fixed 2 (the lesson's
// size) instead of n. For n = 2 nothing changes; for n = 1 the lone thread
// also adds As[1] * Bs[1], shared slots nothing stored (on a GPU: whatever
// that shared memory held). The n = 1 test is there to catch this bound.
// targets: n=1
#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    As[row * n + col] = A[row * n + col];
    Bs[row * n + col] = B[row * n + col];

    __syncthreads();

    float sum = 0.0f;
    for (int k = 0; k < 2; ++k)  // MUTANT: should be k < n
        sum += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
