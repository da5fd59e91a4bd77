// No edge guard: for n not a multiple of 16 the edge threads read A and B
// past their ends and write past the end of C.
#include "lab.h"

__global__ void unguarded(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    unguarded<<<grid, block>>>(A, B, C, n);
}
