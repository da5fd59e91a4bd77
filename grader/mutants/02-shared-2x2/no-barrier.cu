// Mutant of 02-shared-2x2: the __syncthreads() between the loads and the
// dot product is missing. Each thread reads elements of As and Bs that
// other threads have not stored yet (on the simulator, threads run one
// after another up to a barrier, so thread 0 reads what is left from the
// previous launch or zeros): wrong results, and the barrier test fails
// too (its check run gets the wrong result before it counts hazards).
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
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
