// Bad kernel: stage 04's tiled kernel, right, compiled with
// __launch_bounds__(256): a promise to nvcc that no block has more than 256
// threads, which it may spend on registers. The TILE=16 build (16 x 16 =
// 256 threads a block) keeps it; the TILE=32 build launches 1024, and a GPU
// refuses every such launch ("too many resources requested for launch").
// The simulator reads the bound from the PTX nvcc kept and refuses it too.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__global__ void __launch_bounds__(256) matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
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
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
}
