// Mutant of 01-naive: the dot product runs k <= n, one step too far: it
// adds A[row][n] (really A[row + 1][0]) times B[n][col], which lies past
// the end of B. Where B ends on a 256-byte boundary (n = 16, 64, 1000:
// n * n * 4 bytes is a multiple of 256) the simulator faults at once; at
// other sizes the extra read lands in the allocation's alignment slack (a
// tiny canary value on the simulator) and the wrong term can vanish in
// rounding, so those sizes may pass.
// targets: n=16; n=64; n=1000
#include "lab.h"

#define BLOCK 16

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row >= n || col >= n)
        return;

    float sum = 0.0f;
    for (int k = 0; k <= n; ++k)  // MUTANT: should be k < n
        sum += A[row * n + k] * B[k * n + col];

    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(BLOCK, BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
