// Stage 03-shared-3x3: one block multiplies two n x n matrices through shared
// memory, for 3x3 and then for every n one block can hold.
//
// The kernel of stage 02, grown up: shared arrays sized for the largest
// matrix one block can cover, a dot product over n shared elements, and a
// launch of n x n threads. It teaches which thread loads which element and
// which shared elements each thread then reads, what the barrier makes each
// thread wait for, and where the approach stops: a block holds at most 1024
// threads, so n = 32 is the end. For n = 33 the launch is refused with
// an invalid-configuration error, a clear error rather than a wrong answer;
// stage 04 gets past the limit with tiles.
//
//   make -C labs/03-shared-3x3 run N=3     # build, check against the CPU reference, time it
//   make -C labs/03-shared-3x3 run N=32    # the largest n one block can hold
//   make -C labs/03-shared-3x3 run N=33    # refused: 33 x 33 = 1089 threads
//   make grade LAB=03-shared-3x3           # grade this stage
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). Work through
// the TODOs in order; README.md in this folder explains each one.

#include "lab.h"

// TODO 1: #define MAX_N here: the largest n for which n x n threads still fit
//         in one block (README: "The 1024-thread limit"). The shared arrays
//         are sized with it. Check: MAX_N * MAX_N must be at most 1024, and
//         (MAX_N + 1) * (MAX_N + 1) must be more than 1024.

// ---- kernel ----

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    // TODO 2: Declare two static __shared__ float arrays, As and Bs, flat
    //         and row-major like A and B, each with room for a MAX_N x MAX_N
    //         matrix. Their size must be a compile-time constant, which is
    //         why they are sized for the largest n rather than for n. Check:
    //         work out the bytes both take together (README: "Counting"); a
    //         block may use up to 48 KiB of static shared memory.

    // TODO 3: Work out which element of C this thread owns: ints col and row
    //         from threadIdx, x giving the COLUMN. One block covers the whole
    //         matrix, so blockIdx is always 0. Check by hand: for n = 3, the
    //         thread with threadIdx (x=2, y=1) owns C[1][2], which is 54 in
    //         the README's worked example.

    // TODO 4: Copy this thread's element of A into As, and of B into Bs, each
    //         at the same row-major index (with n, not MAX_N) it has in global
    //         memory. Check by hand with the README's matrices: thread
    //         (row 1, col 2) stores 6 in As[5] and 4 in Bs[5], and no two
    //         threads store into the same slot.

    // TODO 5: Make every thread wait until all of them have stored their two
    //         values, with a comment saying what the barrier protects. Check:
    //         no if and no return comes before it, so every thread reaches it.

    // TODO 6: Compute the dot product of row `row` of As with column `col` of
    //         Bs, from shared memory only, in a local float that starts at
    //         zero; loop k from 0 to n-1 (n, not MAX_N). Check by hand:
    //         thread (row 1, col 2) reads As[3], As[4], As[5] = 4, 5, 6 and
    //         Bs[2], Bs[5], Bs[8] = 7, 4, 1, and gets 28 + 20 + 6 = 54.

    // TODO 7: Store the sum into C[row][col] (row-major) with a single write.
    //         Check: `make -C labs/03-shared-3x3 run N=1` should now PASS (the
    //         placeholder block below is one thread); N=3 still fails.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One block, because only the threads of one block share its arrays.
    dim3 grid(1, 1);

    // TODO 8: Give the block n x n threads, n in x (the columns) by n in y
    //         (the rows), for EVERY n. Do not add a size check of your own:
    //         for n > MAX_N, CUDA itself must refuse the launch (README:
    //         "Past 32"). Check: N=3, N=5 and N=32 PASS; N=33 stops with a
    //         CUDA error (a refused launch).
    dim3 block(1, 1);  // placeholder: a single thread, replace it

    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
