// Stage 02-shared-2x2: one block multiplies two 2x2 matrices through shared
// memory.
//
// Each of the four threads copies one element of A and one of B from global
// memory into __shared__ arrays, waits at __syncthreads() until all of them
// have, then computes its element of C from the shared copies. It teaches
// what shared memory is (on-chip, one copy per block), why a barrier must sit
// between writing it and reading it, and how it turns 2n global loads per
// thread into 2. The code works for any n up to the one-block limit; the
// lesson stays with n = 2.
//
//   make -C labs/02-shared-2x2 run N=2     # build, check against the CPU reference, time it
//   make grade LAB=02-shared-2x2           # grade this stage

#include "lab.h"

#define MAX_N 32  // room for the largest n one block can hold: 32x32 = 1024 threads (stage 03)

// ---- kernel ----

__global__ void matmul_shared_kernel(const float *A, const float *B, float *C, int n)
{
    // One slot per element of A and of B, visible to every thread of this
    // block. Static arrays get their size when the file is compiled, so they
    // are sized for the largest n. They are flat and row-major like A and B:
    // an n x n product fills their first n*n slots, with no gaps.
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    // A single block covers the whole matrix, so the thread's position in
    // the block is its element of C. x walks the columns, as in stage 01.
    int col = threadIdx.x;
    int row = threadIdx.y;

    // Every element of A and of B is read from global memory exactly once,
    // by the thread that sits at the same (row, col), and lands at the same
    // index in shared memory.
    As[row * n + col] = A[row * n + col];
    Bs[row * n + col] = B[row * n + col];

    // Protects the loads above: the loop below reads elements of As and Bs
    // that other threads wrote, so no thread may start it until every thread
    // has stored its two values.
    __syncthreads();

    // Stage 01's dot product with A and B swapped for their shared copies.
    // Loop to n, not MAX_N: the rest of the arrays holds nothing of this
    // product.
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += As[row * n + k] * Bs[k * n + col];

    // No second barrier: nothing writes As or Bs again in this kernel.
    C[row * n + col] = sum;
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One block, because only the threads of one block share its arrays.
    // One thread per element of C: n x n threads (a launch of more than
    // 1024 is refused, which stage 03 is about).
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
