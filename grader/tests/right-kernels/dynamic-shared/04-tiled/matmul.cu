// Correct, with the tiles in dynamic shared memory: one `extern __shared__`
// array, sized by the launch's third argument and split by hand into the A
// tile and the B tile (a layout many CUDA texts teach).  Stage 04's idea is
// the same; the grader must give it full marks on both backends.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__global__ void tiled_dynamic(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float tiles[];
    float *As = tiles;                // TILE x TILE, row-major
    float *Bs = tiles + TILE * TILE;  // the next TILE x TILE floats
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[ty * TILE + tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty * TILE + tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    int shared_bytes = 2 * TILE * TILE * (int)sizeof(float);
    // Not needed below 48 KiB, but what a kernel that wants more must do
    // first; the simulator takes it as a GPU does.
    CUDA_CHECK(cudaFuncSetAttribute(tiled_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
    tiled_dynamic<<<grid, block, shared_bytes>>>(A, B, C, n);
}
