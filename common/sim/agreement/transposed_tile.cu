// A kernel built to conflict, for comparing the simulator's bank-conflict
// count with a GPU's: the tiled product with the A tile stored transposed
// and unpadded, so each warp's store to it walks a column (32-way).
#include "lab.h"

#define TILE 32

__global__ void transposed_tile(const float *A, const float *B, float *C, int n)
{
    __shared__ float At[TILE][TILE];  // At[k][row]: A's tile, transposed
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        At[tx][ty] = row < n && t * TILE + tx < n ? A[row * n + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = col < n && t * TILE + ty < n ? B[(t * TILE + ty) * n + col] : 0.0f;
        __syncthreads();  // both tiles complete before anyone reads them
        for (int k = 0; k < TILE; k++)
            acc += At[k][ty] * Bs[k][tx];
        __syncthreads();  // everyone done reading before the next tiles overwrite them
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    transposed_tile<<<grid, block>>>(A, B, C, n);
}
