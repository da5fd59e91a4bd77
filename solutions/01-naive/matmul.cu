// Stage 01-naive: one thread per element of C, every operand read straight
// from global memory.
//
// This is the baseline the later stages improve on. It teaches the
// thread-to-element mapping (a 2-D grid of 16x16 blocks laid over C), the
// ceiling division that sizes the grid, the edge guard that makes any n work,
// and why threadIdx.x walks the columns of C.
//
//   make -C labs/01-naive run N=1000      # build, check against the CPU reference, time it
//   make grade LAB=01-naive               # grade this stage

#include "lab.h"

#define BLOCK 16  // 16x16 = 256 threads per block, well under the 1024 limit

// ---- kernel ----

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    // x walks columns so that neighbouring lanes of a warp read neighbouring
    // B[k][col] addresses (one coalesced request) and write neighbouring C
    // addresses; A[row][k] is then shared by a whole row of lanes (a broadcast).
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    // The grid is rounded up to whole blocks, so the last blocks hang over
    // the matrix whenever n is not a multiple of BLOCK.
    if (row >= n || col >= n)
        return;

    // A register accumulator: C is touched once, not n times.
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];

    C[row * n + col] = sum;
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(BLOCK, BLOCK);
    // Round up: n / BLOCK would drop the partial block at the right and
    // bottom edges, leaving those elements of C unwritten.
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
