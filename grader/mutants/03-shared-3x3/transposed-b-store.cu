// Mutant of 03-shared-3x3: swapped indices. B is stored transposed into
// shared memory (Bs[col][row] = B[row][col]) but read as if it were not,
// so the kernel computes A * transpose(B).
// targets: n=3; n=5
#include "lab.h"

#define MAX_N 32  // 32 x 32 = 1024 threads, the most one block can hold

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    As[row * n + col] = A[row * n + col];
    Bs[col * n + row] = B[row * n + col];  // MUTANT: should be Bs[row * n + col]

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
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
