// Correct stage 04, launched through the runtime API instead of <<<...>>>:
// cudaLaunchKernel with the kernel itself (CUDA's C++ form), an array of
// pointers to its arguments, the tiles' bytes as dynamic shared memory and
// a stream of its own.  nvcc compiles it and the simulator must run it.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__global__ void tiled(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float tiles[];
    float *As = tiles, *Bs = tiles + TILE * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[ty * TILE + tx] = row < n && a_col < n ? A[row * n + a_col] : 0.0f;
        Bs[ty * TILE + tx] = b_row < n && col < n ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    void *args[] = {&A, &B, &C, &n};
    CUDA_CHECK(cudaLaunchKernel(tiled, grid, block, args, 2 * TILE * TILE * sizeof(float), stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaStreamDestroy(stream));
}
