// Stage 04-tiled: full tiling. Each block copies TILE x TILE tiles of A and B
// into shared memory, one phase at a time, and every thread of the block
// reuses each copied value TILE times.
//
// This stage teaches the phase loop over ceil(n / TILE) tiles, the two
// __syncthreads() of every phase and what each one protects, and the
// zero-fill at the edges that lets any n work while every thread still
// reaches every barrier. Global loads per thread fall from 2n (stage 01) to
// 2 * ceil(n / TILE).
//
//   make -C labs/04-tiled run N=1000      # build, check against the CPU reference, time it
//   make grade LAB=04-tiled               # grade this stage (built with TILE=16 and TILE=32)
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). Work through
// the TODOs in order; README.md in this folder explains each one.

#include "lab.h"

// The grader rebuilds this file with -DTILE=16 and -DTILE=32, so nothing
// below may assume a particular width: write TILE, never 32 or 16.
#ifndef TILE
#define TILE 32
#endif

// ---- kernel ----

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    // One tile of A and one of B, shared by the block's TILE x TILE threads.
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // TODO 1: Work out which element of C this thread owns: declare ints
    //         col and row from blockIdx, TILE and tx / ty, with x giving the
    //         column as in stage 01. Do NOT return early for threads outside
    //         C: every thread has loads to do and barriers to reach (README:
    //         "Zero-fill, not early return"). Check by hand: with TILE = 32,
    //         thread (tx=3, ty=5) of block (x=2, y=1) owns col 67, row 37.

    float sum = 0.0f;

    // TODO 2: Set phases to the number of tiles that cover one row of A (or
    //         one column of B): n / TILE rounded UP. Check: with TILE = 32,
    //         n = 32 needs 1 phase, n = 33 needs 2, n = 1000 needs 32.
    int phases = 0;  // placeholder: no phase runs, replace it

    for (int t = 0; t < phases; ++t) {
        // TODO 3: Load this phase's tiles: one element of each per thread.
        //         As[ty][tx] gets A[row][t*TILE + tx] and Bs[ty][tx] gets
        //         B[t*TILE + ty][col], row-major as in stage 01. An element
        //         outside the n x n matrix must be stored as 0.0f instead of
        //         being read. Check by hand (README, "The edges"): for n = 3,
        //         TILE = 2, phase t = 1, thread (tx=0, ty=1) of block (0,0)
        //         copies A[1][2] into As[1][0], but stores 0 into Bs[1][0]:
        //         the B element it would copy, B[3][0], is outside the matrix.

        // TODO 4: Add the barrier that keeps any thread from reading a tile
        //         before every thread has finished writing its element.
        //         Comment it with what it protects. Check: it must be reached
        //         by every thread of the block, so it cannot sit inside an
        //         `if` that depends on row or col.

        // TODO 5: Add this tile's share of the dot product to sum: loop k
        //         over the TILE columns of As / rows of Bs, multiplying
        //         As[ty][k] by Bs[k][tx]. Check: the zeros of TODO 3 mean no
        //         test against n is needed here.

        // TODO 6: Add the barrier that keeps any thread from overwriting
        //         the tiles (in the next phase's TODO 3) while another is
        //         still reading them in TODO 5. Comment it with what it
        //         protects. Check: the loop body now has exactly two
        //         barriers, neither inside the k loop (README: "Bug hunt").
    }

    // TODO 7: Store sum into C[row][col], once, after the phase loop, and only
    //         if (row, col) lies inside the matrix. Check: `make -C
    //         labs/04-tiled run N=32` should now PASS (one block covers a
    //         32 x 32 matrix even before TODO 8); N=33 still shows NaN.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One thread per element of a tile: the block must be TILE x TILE.
    dim3 block(TILE, TILE);

    // TODO 8: Size the grid so that its TILE x TILE blocks cover all n
    //         columns (x) and all n rows (y), rounding up as in stage 01.
    //         Check: with TILE = 32, n = 1000 needs 32 blocks per side. Then
    //         run N=1, 31, 33, 48, 100 and 1000: all must PASS.
    dim3 grid(1, 1);  // placeholder: a single block, replace it

    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
