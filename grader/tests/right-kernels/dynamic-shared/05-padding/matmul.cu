// Correct, with the padded, transposed A tile in dynamic shared memory,
// declared once at file scope: the pad is in the index arithmetic (a row
// stride of TILE + 1), not in an array's declared shape.
#include "lab.h"

#define TILE 32
#define A_STRIDE (TILE + 1)  // one word of padding per row of the A tile

extern __shared__ float smem[];

__global__ void padded_dynamic(const float *A, const float *B, float *C, int n)
{
    float *As = smem;                    // TILE rows of A_STRIDE words, transposed
    float *Bs = smem + TILE * A_STRIDE;  // TILE x TILE, as loaded
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[tx * A_STRIDE + ty] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty * TILE + tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[k * A_STRIDE + ty] * Bs[k * TILE + tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    size_t shared_bytes = (TILE * A_STRIDE + TILE * TILE) * sizeof(float);
    padded_dynamic<<<grid, block, shared_bytes>>>(A, B, C, n);
}
