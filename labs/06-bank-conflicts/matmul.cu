// Stage 06-bank-conflicts: removing the transposed tile's bank conflicts
// without spending memory.
//
// Same kernel as stage 05 (the A tile stored transposed), but the tiles must
// be exactly TILE x TILE: no padding column. Instead you permute the column
// index within each row, so that the 32 elements of a logical column land in
// 32 different banks. PATTERN 1 is the XOR swizzle; PATTERN 2 is a second
// conflict-free layout that you choose from the README.
//
//   make -C labs/06-bank-conflicts run N=1000   # build, check against the CPU reference, time it
//   make grade LAB=06-bank-conflicts            # grade this stage (the PATTERN set below)
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). The tiling
// scaffold of stages 04 and 05 is done for you. Work through the TODOs in
// order; README.md in this folder explains each one.

#include "lab.h"

// Fixed at 32, the number of banks; the arrays below stay exactly
// [TILE][TILE] (this stage allows no padding).
#define TILE 32

// Which kernel matmul launches: 1 = XOR swizzle, 2 = your second pattern
// (TODO 5). The grader builds the file as it is, so leave 1 here unless your
// PATTERN 2 kernel passes every size.
#ifndef PATTERN
#define PATTERN 1
#endif

// ---- kernels ----

// The column where logical element [r][c] of the transposed A tile is kept,
// for r and c in 0..TILE-1.
__device__ __forceinline__ int swizzle(int r, int c)
{
    // TODO 1: Return the swizzled column: c combined with r by one bitwise
    //         operation, chosen so that (README: "The XOR swizzle")
    //           - for a fixed r, c = 0..31 give 32 different results in
    //             0..31 (each row still holds its 32 elements), and
    //           - for a fixed c, r = 0..31 give 32 different results (a
    //             logical column is spread over all 32 banks).
    //         Check by hand: swizzle(6, 3) must be 5 (the README's worked
    //         example), and in the 4 x 4 corner table of the README
    //         (r, c = 0..3) every row and every column must hold 0, 1, 2
    //         and 3 once each. The placeholder is correct but keeps stage
    //         05's conflict, so TODOs 2-4 work with or without it.
    return c;  // placeholder: no swizzle, replace it
}

__global__ void matmul_swizzle_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];  // logical As[k][i] = A[i][k] of the tile, stored at column swizzle(k, i)
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;

    float sum = 0.0f;
    int phases = (n + TILE - 1) / TILE;
    for (int t = 0; t < phases; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;

        // TODO 2: Copy A[row][a_col] (0.0f outside the matrix) into the
        //         transposed tile as in stage 05, logical row tx, logical
        //         column ty, but at the column that swizzle() gives for that
        //         row and column. Check by hand: once TODO 1 is done, thread
        //         (tx=3, ty=5) of block (0,0), phase 0, stores A[5][3] in
        //         row 3 of As, at column 6.

        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // TODO 3: Add this tile's share of the dot product to sum. Logical
        //         As[k][ty] must be read through the SAME swizzle that stored
        //         it. Check: with the placeholder swizzle this is stage 05's
        //         loop; with yours, N=100 passing shows store and read agree
        //         (a mismatch scrambles the sums, and the kit reports wrong
        //         values from the very first element).

        // Protects the next phase's writes: everyone has finished reading
        // these tiles before they are overwritten.
        __syncthreads();
    }

    // TODO 4: Store sum into C[row][col] if (row, col) lies inside the matrix.
    //         Check: N=1, 31, 33, 100 and 257 all PASS.
}

// Your second conflict-free layout (PATTERN 2). Still exactly [TILE][TILE].
__global__ void matmul_second_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;

    float sum = 0.0f;
    int phases = (n + TILE - 1) / TILE;
    for (int t = 0; t < phases; ++t) {
        int b_row = t * TILE + ty;

        // TODO 5: Fill As with this phase's A tile in the layout you chose
        //         from the README ("A second pattern": a rotation, swapped
        //         loading roles, or a row store read the other way). Write,
        //         in a comment above the store, which element each lane of a
        //         warp writes and why the 32 lanes hit 32 banks (or one
        //         word). Keep the zero-fill. Check: work out the banks of
        //         lanes tx = 0..3 for ty = 5 by hand, as in stage 05.

        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // TODO 6: Add this tile's share of the dot product to sum, reading As
        //         in the same layout TODO 5 wrote. Check: work out the banks
        //         the warp reads for one k; all lanes share ty, so a
        //         conflict-free read is one word (a broadcast) or 32 banks.

        // Protects the next phase's writes: everyone has finished reading
        // these tiles before they are overwritten.
        __syncthreads();
    }

    // TODO 7: Store sum into C[row][col] (guarded), then build and run this
    //         kernel: set PATTERN to 2 at the top of the file, run N=1, 33,
    //         100 and 257 (all must PASS), and set PATTERN back to 1.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
#if PATTERN == 1
    matmul_swizzle_kernel<<<grid, block>>>(A, B, C, n);
#else
    matmul_second_kernel<<<grid, block>>>(A, B, C, n);
#endif
}
