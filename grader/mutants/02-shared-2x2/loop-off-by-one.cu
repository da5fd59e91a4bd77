// Mutant of 02-shared-2x2: the dot product runs k <= n, one step too far,
// and reads shared slots past the n x n product that nothing stored
// (Bs[n * n + col]). The simulator's static shared memory starts at 0, so
// the extra term is 0 and the size tests may pass; check mode reports the
// reads of shared memory nothing wrote, under "barrier".
// targets: barrier
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
    for (int k = 0; k <= n; ++k)  // MUTANT: should be k < n
        sum += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
