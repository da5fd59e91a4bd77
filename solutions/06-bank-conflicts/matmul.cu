// Stage 06-bank-conflicts: removing the transposed tile's bank conflicts
// without spending memory.
//
// Same kernel as stage 05 (the A tile stored transposed), but the tiles are
// exactly TILE x TILE: no padding. Instead the column index is permuted per
// row, so that the 32 elements of a logical column land in 32 different
// banks. PATTERN 1 is the XOR swizzle (column ^ row); PATTERN 2 is a second
// conflict-free layout, a rotation (column + row) mod TILE. Both keep the
// coalesced global reads of stage 04.
//
//   make -C labs/06-bank-conflicts run N=1000   # build, check against the CPU reference, time it
//   make grade LAB=06-bank-conflicts            # grade this stage (PATTERN 1 unless you change it)

#include "lab.h"

// Fixed at 32: the swizzle below maps 0..31 onto 0..31, which needs the tile
// width to be the number of banks (a power of two).
#define TILE 32

// Which kernel matmul launches: 1 = XOR swizzle, 2 = the second pattern
// (here a rotation; the lab lets the student choose).
#ifndef PATTERN
#define PATTERN 1
#endif

// ---- kernels ----

// Where logical element [r][c] of the transposed A tile is kept: in row r,
// at column c ^ r. For a fixed r this is a permutation of 0..31 (so a row
// still holds its 32 elements, no two in one place); for a fixed c and
// r = 0..31 the results are all different, so a column is spread over all
// 32 banks.
__device__ __forceinline__ int swizzle(int r, int c)
{
    return c ^ r;
}

__global__ void matmul_swizzle_kernel(const float *A, const float *B, float *C, int n)
{
    // Exactly TILE x TILE: the swizzle replaces stage 05's padding column.
    __shared__ float As[TILE][TILE];  // As[k][swizzle(k, i)] = A[i][k] of the tile
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
        // Logical As[tx][ty], stored at column ty ^ tx: the warp's 32 lanes
        // (tx = 0..31, one ty) write 32 different columns, hence 32 banks.
        As[tx][swizzle(tx, ty)] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // Logical As[k][ty] is read back through the same swizzle. Every lane
        // of the warp shares ty, so all ask for one word: a broadcast.
        for (int k = 0; k < TILE; ++k)
            sum += As[k][swizzle(k, ty)] * Bs[k][tx];

        // Protects the next phase's writes: everyone has finished reading
        // these tiles before they are overwritten.
        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = sum;
}

// The second pattern: a rotation. Logical [r][c] is kept at column
// (c + r) mod TILE, so row r is shifted r places to the left, wrapping
// round. Down a column the shift grows by one per row, so the column covers
// every bank once: the same banks padding gives, without the extra column.
// It costs an add and a mask where the XOR costs one instruction.
__device__ __forceinline__ int rotate(int r, int c)
{
    return (c + r) & (TILE - 1);  // mod TILE, since TILE is a power of two
}

__global__ void matmul_second_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];  // As[k][rotate(k, i)] = A[i][k] of the tile
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
        // Lane tx of the warp (one ty) writes row tx, column (ty + tx) mod
        // 32: word 32*tx + ((ty + tx) mod 32), whose bank is (ty + tx) mod
        // 32. The 32 lanes give 32 different banks.
        As[tx][rotate(tx, ty)] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: both tiles are complete before anyone
        // reads them.
        __syncthreads();

        // For one k every lane asks for row k, column (ty + k) mod 32: one
        // word, a broadcast.
        for (int k = 0; k < TILE; ++k)
            sum += As[k][rotate(k, ty)] * Bs[k][tx];

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
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
#if PATTERN == 1
    matmul_swizzle_kernel<<<grid, block>>>(A, B, C, n);
#else
    matmul_second_kernel<<<grid, block>>>(A, B, C, n);
#endif
}
