// Mutant of 02-shared-2x2: an uninitialised accumulator. Each thread sums
// into a slot of a __shared__ array that nothing zeroes. On the simulator
// static shared memory starts at 0, so the very first launch happens to be
// right; every later launch in the same process (the grader runs three
// random inputs per size) starts from the previous product, so it fails
// reliably. On a GPU shared memory starts with any old contents.
// targets: n=2
#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    int col = threadIdx.x;
    int row = threadIdx.y;

    __shared__ float Cs[MAX_N * MAX_N];  // MUTANT: the accumulator, never zeroed

    As[row * n + col] = A[row * n + col];
    Bs[row * n + col] = B[row * n + col];

    __syncthreads();

    for (int k = 0; k < n; ++k)
        Cs[row * n + col] += As[row * n + k] * Bs[k * n + col];

    C[row * n + col] = Cs[row * n + col];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
