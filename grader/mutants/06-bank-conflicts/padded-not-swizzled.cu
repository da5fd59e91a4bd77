// Mutant of 06-bank-conflicts: stage 05's fix instead of this stage's.
// The transposed tile is padded (As[TILE][TILE + 1]) and not swizzled: no
// bank conflicts and a right product, but it spends the padding column
// this stage asks to do without.
// targets: no padding
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
    __shared__ float As[TILE][TILE + 1];  // MUTANT: padding instead of the swizzle
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
        As[tx][ty] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

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
