// Mutant of 02-shared-2x2: the barrier is in the wrong place, after the dot
// product instead of between the loads and the product, so it protects
// nothing: the product reads shared elements other threads have not
// stored yet.
// targets: n=2; barrier
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

    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += As[row * n + k] * Bs[k * n + col];

    __syncthreads();  // MUTANT: belongs before the loop

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
