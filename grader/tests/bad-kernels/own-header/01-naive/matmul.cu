// Bad kernel: the naive kernel, right, but with its index function in a
// header of its own beside matmul.cu. A lab is one file, and the grader
// takes matmul.cu alone: the header is not found (on a GPU, `make run`
// still builds it, in place). The stage's compile error, and the message
// names the header and says to move it into matmul.cu.
#include "lab.h"
#include "index.cuh"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += A[at(row, k, n)] * B[at(k, col, n)];
        C[at(row, col, n)] = sum;
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
