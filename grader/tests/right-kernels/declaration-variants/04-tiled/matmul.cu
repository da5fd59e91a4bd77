// Right on a GPU and on the simulator: stage 04 declared in legal ways the
// solutions do not use: the matrices passed in a structure by value, a tile
// declared `__device__ __shared__` (shared memory: CUDA allows the pair),
// the other `volatile`, an `extern "C"` kernel and a `static inline`
// device helper.  The grader must give every point.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

struct Problem {
    const float *A, *B;
    float *C;
    int n;
};

__device__ static inline float load_or_zero(const float *m, int r, int c, int n)
{
    return r < n && c < n ? m[r * n + c] : 0.0f;
}

extern "C" __global__ void tiled(Problem p)
{
    __device__ __shared__ float As[TILE][TILE];
    __shared__ volatile float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0;
    for (int t = 0; t < p.n; t += TILE) {
        As[ty][tx] = load_or_zero(p.A, row, t + tx, p.n);
        Bs[ty][tx] = load_or_zero(p.B, t + ty, col, p.n);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < p.n && col < p.n)
        p.C[row * p.n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    Problem p{A, B, C, n};
    tiled<<<dim3((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), dim3(TILE, TILE)>>>(p);
}
