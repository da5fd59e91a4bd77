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

#include "lab.h"

// The grader rebuilds this file with -DTILE=16 and -DTILE=32, so nothing
// below may assume a particular width.
#ifndef TILE
#define TILE 32
#endif

// ---- kernel ----

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    // One tile of A and one of B: 2 * TILE * TILE floats per block
    // (8 KiB for TILE = 32), far below the 48 KiB static limit.
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    // The block is TILE x TILE threads, so blockIdx * TILE is the corner of
    // this block's tile of C; x walks the columns, as in stage 01.
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;

    float sum = 0.0f;
    int phases = (n + TILE - 1) / TILE;  // rounded up: the last tile may be partial
    for (int t = 0; t < phases; ++t) {
        // Each thread copies one element of each tile. The A tile slides
        // along this block's rows of A, the B tile down its columns of B.
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        // Out-of-range elements become 0 instead of being skipped: a zero
        // adds nothing to the sum, and the thread still goes on to the
        // barriers below with everyone else.
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: nobody reads a tile until every thread
        // has written its element of it.
        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];

        // Protects the next phase's writes: nobody overwrites a tile until
        // every thread has finished reading this phase's values.
        __syncthreads();
    }

    // Only the store is guarded: threads outside C took part in the loads
    // and the barriers, but own no element of C.
    if (row < n && col < n)
        C[row * n + col] = sum;
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One thread per element of a tile: the block must be TILE x TILE.
    dim3 block(TILE, TILE);
    // The rows of blocks rounded down: the last partial row of tiles
    // is never computed when TILE does not divide n.
    dim3 grid((n + TILE - 1) / TILE, n / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
