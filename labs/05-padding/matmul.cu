// Stage 05-padding: shared-memory bank conflicts, and the padding trick that
// removes them.
//
// The kernel is the tiled kernel of stage 04 with one change: the A tile is
// stored TRANSPOSED (As[k][i] holds A[i][k] of the tile). A warp then writes
// a column of As, and with 32 floats per row every lane of that column falls
// in the same bank: a 32-way conflict. You build that kernel, count its
// conflicts, then remove them with one extra float per row.
//
//   make -C labs/05-padding run N=1000    # build, check against the CPU reference, time it
//   make grade LAB=05-padding             # grade this stage
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). The tiling
// scaffold of stage 04 (coordinates, phases, the B tile, both barriers, the
// grid) is done for you. Work through the TODOs in order; README.md in this
// folder explains each one.

#include "lab.h"

// Fixed at 32 in this stage: a warp is 32 lanes and there are 32 banks, so a
// 32-wide tile shows the conflict at its worst.
#define TILE 32

// ---- kernel ----

__global__ void matmul_padded_kernel(const float *A, const float *B, float *C, int n)
{
    // TODO 5 changes this declaration (and nothing else in the file).
    __shared__ float As[TILE][TILE];  // the A tile, transposed: As[k][i] = A[i][k] of the tile
    // The B tile is written and read along rows only, as in stage 04.
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

        // TODO 1: Copy this thread's element of the A tile, A[row][a_col],
        //         into the tile TRANSPOSED: it goes to row tx, column ty of
        //         As (not row ty, column tx as in stage 04). Keep stage 04's
        //         zero-fill: outside the matrix, store 0.0f and read nothing.
        //         Check by hand: in block (0,0), phase 0, the thread
        //         (tx=2, ty=1) copies A[1][2] and puts it in As[2][1].

        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // TODO 2: Add this tile's share of the dot product to sum, reading
        //         the A tile through its transposed layout: the element that
        //         stage 04 read as As[ty][k] now sits at the mirror-image
        //         position. Check: for k = 0..TILE-1 you read A[row][t*TILE+k]
        //         and B[t*TILE+k][col], exactly the products of stage 04.

        // Protects the next phase's writes: everyone has finished reading
        // these tiles before they are overwritten.
        __syncthreads();
    }

    // TODO 3: Store sum into C[row][col] if (row, col) lies inside the matrix,
    //         as in stage 04. Check: `make -C labs/05-padding run N=257`
    //         and N=1, 31, 33, 100 must all PASS now. The kernel is correct
    //         but has a 32-way bank conflict: TODOs 4 and 5 are about that.

    // TODO 4: Count the conflict before you fix it (README: "Counting it by
    //         hand"). One warp is one row of threads: ty fixed, tx = 0..31.
    //         Work out the word index, then the bank, of the As element that
    //         lanes tx = 0, 1, 2, 3 write in TODO 1 (take ty = 5). Check: all
    //         four must land in the same bank; write the warp's conflict
    //         degree as Q4 in answers.txt.

    // TODO 5: Pad the A tile: give As one more column than it has rows, so
    //         that consecutive rows start one bank apart. Change only the
    //         declaration; the indexes of TODO 1 and 2 stay as they are.
    //         Check: redo TODO 4's four lanes with the new row length (they
    //         must now land in four different banks), then run N=1, 33, 100
    //         and 257 again: all must still PASS.
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_padded_kernel<<<grid, block>>>(A, B, C, n);
}
