// Mutant of 05-padding: the padding is on the wrong tile. Bs, which is
// written and read along rows and never conflicts, gets the extra column;
// the transposed As, whose column writes conflict 32 ways, gets none. There
// is padding, so only the bank-conflict test can tell.
// targets: no bank conflicts
#include "lab.h"

#define TILE 32  // fixed in this stage

__global__ void matmul_padded_kernel(const float *A, const float *B, float *C, int n)
{
    // MUTANT: the padding belongs on As
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];

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
