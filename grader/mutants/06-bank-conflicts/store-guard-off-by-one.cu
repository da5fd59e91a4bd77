// Mutant of 06-bank-conflicts: the store guard is off by one
// (row <= n && col <= n): the threads of row n store past the end of C,
// those of column n over the first element of the next row. n = 64 (whole
// tiles) has no such thread.
// targets: in bounds
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
        As[tx][swizzle(tx, ty)] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        __syncthreads();

        for (int k = 0; k < TILE; ++k)
            sum += As[k][swizzle(k, ty)] * Bs[k][tx];

        __syncthreads();
    }

    if (row <= n && col <= n)  // MUTANT: should be row < n && col < n
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_swizzle_kernel<<<grid, block>>>(A, B, C, n);
}
