// Mutant of 03-shared-3x3: the shared arrays are indexed with the worked
// example's width, 3, instead of n (As[row * 3 + col]). Sizes up to 3 fit
// and pass; from n = 5 on, rows overlap in shared memory (row 1 column 3
// is row 2 column 0) and the product is wrong.
// targets: n=5; n=16; n=31
#include "lab.h"

#define MAX_N 32  // 32 x 32 = 1024 threads, the most one block can hold

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    // MUTANT: 3 where n belongs, in every shared index
    As[row * 3 + col] = A[row * n + col];
    Bs[row * 3 + col] = B[row * n + col];

    __syncthreads();

    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += As[row * 3 + k] * Bs[k * 3 + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
