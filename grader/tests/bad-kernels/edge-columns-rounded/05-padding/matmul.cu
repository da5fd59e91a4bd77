// Stage 05-padding: shared-memory bank conflicts, and the padding trick that
// removes them.
//
// The kernel is the tiled kernel of stage 04 with one change: the A tile is
// stored TRANSPOSED (As[k][i] holds A[i][k] of the tile). A warp then writes
// a column of As, and with 32 floats per row every lane of that column falls
// in the same bank: a 32-way conflict. One extra float per row (TILE + 1
// columns) shifts each row by one bank and makes the column write
// conflict-free, at the cost of TILE * 4 bytes.
//
//   make -C labs/05-padding run N=1000    # build, check against the CPU reference, time it
//   make grade LAB=05-padding             # grade this stage

#include "lab.h"

// Fixed at 32 in this stage: a warp is 32 lanes and there are 32 banks, so a
// 32-wide tile shows the conflict at its worst.
#define TILE 32

// ---- kernel ----

__global__ void matmul_padded_kernel(const float *A, const float *B, float *C, int n)
{
    // The A tile, transposed and padded: row r of As starts at word r * 33,
    // so element [r][c] lies in bank (r + c) mod 32 and a column spreads
    // over all 32 banks. The padding column As[r][TILE] is never used.
    __shared__ float As[TILE][TILE + 1];
    // The B tile is written and read along rows only: no conflicts to fix,
    // so no padding (it would only cost memory).
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
        // The global read is the coalesced one of stage 04 (lanes walk along
        // a row of A); only the place it lands in shared memory changes:
        // lane tx writes row tx of As, so the warp writes down column ty.
        As[tx][ty] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // As[k][ty] is A[row][t*TILE + k]: the same word for every lane of
        // the warp (they share ty), so a broadcast. Bs[k][tx] is a row.
        for (int k = 0; k < TILE; ++k)
            sum += As[k][ty] * Bs[k][tx];

        // Protects the next phase's writes: everyone has finished reading
        // these tiles before they are overwritten.
        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = sum;
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    // The columns of blocks rounded to the nearest: a last partial tile
    // narrower than half a tile is never computed.
    dim3 grid((n + TILE / 2) / TILE, (n + TILE - 1) / TILE);
    matmul_padded_kernel<<<grid, block>>>(A, B, C, n);
}
