// Tiling with whole bands in shared memory: a 32-row band of A and a
// 32-column band of B, each as long as the largest n the student tried
// (224).  That is 56 KiB of static __shared__ arrays, more than the 48 KiB
// a block may declare statically (more needs dynamic shared memory and
// cudaFuncSetAttribute): ptxas refuses the kernel, so on a GPU the file does
// not build, whatever n.  The simulator alone would run it up to n = 224.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif
#define LONGEST 224

__global__ void banded(const float *A, const float *B, float *C, int n)
{
    __shared__ float A_band[TILE][LONGEST];
    __shared__ float B_band[LONGEST][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        A_band[ty][t + tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
        B_band[t + ty][tx] = (col < n && t + ty < n) ? B[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += A_band[ty][t + k] * B_band[t + k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    banded<<<grid, block>>>(A, B, C, n);
}
