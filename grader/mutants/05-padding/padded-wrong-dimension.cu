// Mutant of 05-padding: the padding is on the wrong dimension,
// As[TILE + 1][TILE]: an extra row at the end instead of an extra column
// in every row. Row starts still lie 32 words apart, so the column writes
// still conflict 32 ways, and the unused row is not a gap between the
// words used (nothing after it is used), so it is not padding either.
// targets: no bank conflicts; padding present
#include "lab.h"

#define TILE 32  // fixed in this stage

__global__ void matmul_padded_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE + 1][TILE];  // MUTANT: should be [TILE][TILE + 1]
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
    matmul_padded_kernel<<<grid, block>>>(A, B, C, n);
}
