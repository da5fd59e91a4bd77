// Mutant of 02-shared-2x2: the block is a fixed 2 x 2, whatever n. For
// n = 2 it is right; for n = 1 three threads too many read past the ends
// of A and B and write past the end of C.
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
    for (int k = 0; k < n; ++k)
        sum += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(2, 2);  // MUTANT: should be (n, n)
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
