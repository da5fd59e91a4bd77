// Mutant of 03-shared-3x3: the __syncthreads() between the loads and the
// dot product is missing. Threads read shared elements that others have
// not stored yet (on the simulator threads run one after another up to a
// barrier, so the early ones read what the previous launch left): wrong
// results; the barrier test fails too (its check run gets the wrong result
// before it counts hazards).
// targets: n=3; n=32; barrier
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

    // MUTANT: no __syncthreads() here

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
