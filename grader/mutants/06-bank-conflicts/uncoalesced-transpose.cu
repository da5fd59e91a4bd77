// Mutant of 06-bank-conflicts: a fix that is not coalesced. The transpose
// is done by the global loads instead of in shared memory: lane tx loads
// A[tile row tx][t * TILE + ty], so the 32 lanes of a warp read down a
// column of A (32 sectors per request) and store a row of As, which has no
// conflicts and needs no padding. The product is right; the loads of A are
// uncoalesced.
// targets: coalesced loads
#include "lab.h"

#define TILE 32  // fixed: the swizzle needs the tile width to be the number of banks

// Where logical element [r][c] of the transposed A tile is kept: row r,
// column c ^ r.
__device__ __forceinline__ int swizzle(int r, int c)
{
    return c ^ r;
}

__global__ void matmul_swizzle_kernel(const float *A, const float *B, float *C, int n)
{
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
        // MUTANT: As[k][i] = A[i][k] built from a column read of A
        int a_row = blockIdx.y * TILE + tx;
        int a_k = t * TILE + ty;
        As[ty][tx] = (a_row < n && a_k < n) ? A[a_row * n + a_k] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        (void)a_col;

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[k][ty] * Bs[k][tx];

        __syncthreads();
    }

    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_swizzle_kernel<<<grid, block>>>(A, B, C, n);
}
