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
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). Work through
// the TODOs in order; README.md in this folder explains each one.

#include "lab.h"

#define BLOCK 16  // 16x16 = 256 threads per block, well under the 1024 limit

// ---- kernel ----

__global__ void matmul_naive_kernel(const float *A, const float *B, float *C, int n)
{
    // TODO 1: Work out which element of C this thread owns. Declare two ints,
    //         col and row, from blockIdx, blockDim and threadIdx. The x
    //         components must give the COLUMN (README: "Why x walks the
    //         columns"). Check by hand: with 16x16 blocks, the thread at
    //         threadIdx (x=3, y=5) in blockIdx (x=2, y=1) must get col 35
    //         and row 21.

    // TODO 2: Guard the edges. The grid is rounded up to whole blocks, so some
    //         threads land outside the n x n matrix; they must return before
    //         touching memory. Check: for n = 33 the grid is 48 x 48 threads,
    //         and exactly 33 x 33 of them should get past your guard.

    // TODO 3: Compute the dot product of row `row` of A with column `col` of
    //         B. Accumulate in a local float that you set to zero first, and
    //         loop k from 0 to n-1 using the row-major index formula from the
    //         README. Check by hand: for n = 4, row = 1, col = 2, k = 3 you
    //         should read A at flat index 7 and B at flat index 14.

    // TODO 4: Store the sum into C[row][col] (row-major) with a single write.
    //         Check: `make -C labs/01-naive run N=16` should now PASS, because
    //         one 16x16 block covers a 16x16 matrix even before TODO 5. Larger
    //         N still fails: only the top-left 16x16 corner gets written.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(BLOCK, BLOCK);

    // TODO 5: Size the grid so it covers all n columns (x) and all n rows (y)
    //         with whole blocks. Use a ceiling division, not n / BLOCK, or the
    //         partial blocks at the right and bottom edges go missing.
    //         Check: n = 16 needs 1 block per side, n = 17 needs 2, n = 1000
    //         needs 63. Then run N=1000, 31, 33 and 100: all must PASS.
    dim3 grid(1, 1);  // placeholder: a single block, replace it

    matmul_naive_kernel<<<grid, block>>>(A, B, C, n);
}
