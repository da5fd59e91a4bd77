// Right on a GPU and on the simulator: stage 04's tiling in spellings CUDA
// allows and the solutions do not use: a tile declared `static __shared__`,
// another `__shared__` at file scope, a `static __global__` kernel with
// __launch_bounds__, a template __device__ helper with __restrict__ and
// fmaf, #pragma unroll, and a launch that names its stream.  The grader
// must give every point: nvcc compiles all of these.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

__shared__ float b_tile[TILE][TILE];  // file scope: one per block, as inside a kernel

template <int Width>
__device__ __forceinline__ float row_times_column(const float (*__restrict__ a)[Width], int ty, int tx, float sum)
{
#pragma unroll
    for (int k = 0; k < Width; ++k)
        sum = fmaf(a[ty][k], b_tile[k][tx], sum);
    return sum;
}

static __global__ void __launch_bounds__(TILE * TILE) tiled(const float *__restrict__ A, const float *__restrict__ B,
                                                             float *__restrict__ C, int n)
{
    static __shared__ float a_tile[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        a_tile[ty][tx] = row < n && base + tx < n ? A[(size_t)row * n + base + tx] : 0.0f;
        b_tile[ty][tx] = base + ty < n && col < n ? B[(size_t)(base + ty) * n + col] : 0.0f;
        __syncthreads();
        sum = row_times_column<TILE>(a_tile, ty, tx, sum);
        __syncthreads();
    }
    if (row < n && col < n)
        C[(size_t)row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    const dim3 block{TILE, TILE};
    const dim3 grid{(unsigned)(n + TILE - 1) / TILE, (unsigned)(n + TILE - 1) / TILE};
    tiled<<<grid, block, 0, 0>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
