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
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). Work through
// the TODOs in order; README.md in this folder explains each one.

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

    // TODO 1: Work out which element of C this thread owns. There is only
    //         one block and it covers the whole matrix, so the position in
    //         the block is enough: declare ints col and row from threadIdx,
    //         with x giving the COLUMN as in stage 01. Check by hand: for
    //         n = 2, the thread with threadIdx (x=1, y=0) owns C[0][1], which
    //         is 22 in the README's worked example.

    // TODO 2: Copy this thread's element of A (row `row`, column `col`) into
    //         As, and its element of B into Bs, each at the same row-major
    //         index it has in global memory (stage 01's formula). These are
    //         the only global reads of A and B this thread makes. Check by
    //         hand with the README's matrices: thread (row 1, col 0) stores 3
    //         in As[2] and 7 in Bs[2].

    // TODO 3: Make every thread wait here until all of them have stored
    //         their two values (README: "What __syncthreads() protects").
    //         Say in a comment what it protects. Check: no if and no return
    //         comes before it, so every thread of the block reaches it.

    // TODO 4: Compute the dot product of row `row` of As with column `col` of
    //         Bs, reading shared memory only (no A[...] or B[...] here): stage
    //         01's loop, on the shared copies. Use a local float that starts
    //         at zero, and loop k from 0 to n-1: n, not MAX_N. Check by hand:
    //         thread (row 1, col 0) reads As[2], As[3], Bs[0] and Bs[2], that
    //         is 3, 4, 5 and 7, and gets 3*5 + 4*7 = 43.

    // TODO 5: Store the sum into C[row][col] (row-major) with a single
    //         write. Check: `make -C labs/02-shared-2x2 run N=1` should now
    //         PASS, because the placeholder block of one thread covers a 1x1
    //         matrix. N=2 still fails: only C[0][0] is written, and it is
    //         wrong, because no thread loaded the other elements.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One block, because only the threads of one block share its arrays.
    dim3 grid(1, 1);

    // TODO 6: Give the block one thread per element of C: n threads in x
    //         (the columns) by n in y (the rows). Check: N=2 now PASSes,
    //         and so do N=3 and N=32, since the kernel never assumed n = 2.
    dim3 block(1, 1);  // placeholder: a single thread, replace it

    matmul_shared_kernel<<<grid, block>>>(A, B, C, n);
}
