// Mutant of 02-shared-2x2: a barrier in divergent code. Row 0 is given a
// branch of its own (its indices need no row * n), and each branch has
// its own __syncthreads(), so the threads of one block wait at two
// different barriers. CUDA requires every thread of a block to reach the
// same __syncthreads() (anything else is undefined behaviour); the
// simulator releases both groups together, so the product is right, and
// only check mode sees it ("barriers in divergent code").
// targets: barrier
#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    // MUTANT: one barrier per branch instead of one that all threads share
    float sum = 0.0f;
    if (row == 0) {
        As[col] = A[col];
        Bs[col] = B[col];
        __syncthreads();
        for (int k = 0; k < n; ++k)
            sum += As[k] * Bs[k * n + col];
    } else {
        As[row * n + col] = A[row * n + col];
        Bs[row * n + col] = B[row * n + col];
        __syncthreads();
        for (int k = 0; k < n; ++k)
            sum += As[row * n + k] * Bs[k * n + col];
    }

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
