// Mutant of 02-shared-2x2: swapped indices. A is stored transposed into
// shared memory (As[col][row] = A[row][col]) but read as if it were not,
// so the kernel computes transpose(A) * B. n = 1 cannot tell.
// targets: n=2
#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    As[col * n + row] = A[row * n + col];  // MUTANT: should be As[row * n + col]
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
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
