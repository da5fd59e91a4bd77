// tiled_check: the lab file bench_check.sh times in check mode.  The 32x32
// tiled product (the same kernel as bench_sim.cu's tiled_32x32) behind the
// labs' `matmul` contract, so common/build.mk builds it as it builds a lab:
//
//   make -f common/build.mk BACKEND=sim LAB_SRC=$PWD/common/sim/bench/tiled_check.cu \
//       LAB_NAME=bench-check OUT=$PWD/build/sim/bench/check-tiled \
//       $PWD/build/sim/bench/check-tiled/check/run_lab
//   build/sim/bench/check-tiled/check/run_lab 256 1 1
#include "lab.h"

#define TILE 32

__global__ void tiled_32x32(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        As[ty][tx] = row < n && t * TILE + tx < n ? A[row * n + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = col < n && t * TILE + ty < n ? B[(t * TILE + ty) * n + col] : 0.0f;
        __syncthreads();  // the tiles are complete before anyone reads them
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done reading before the next load
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tiled_32x32<<<grid, block>>>(A, B, C, n);
}
