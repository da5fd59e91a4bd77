// A right stage-06 kernel from a student who read Kepler-era advice: before
// launching it asks for eight-byte shared memory banks, for the device and
// for the kernel, and checks both calls.  Banks have been four bytes wide
// since Maxwell and CUDA accepts the request there and changes nothing, so
// the kernel must be (and is) conflict-free with four-byte banks: A's tile
// is stored transposed with an XOR swizzle, column k of row i in row k at
// column i ^ k, rather than the solution's rotation.
#include <stdio.h>

#include "lab.h"

#define TILE 32

__global__ void matmul_xor_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float At[TILE][TILE];  // At[k][i ^ k] = A[row0 + i][k0 + k]
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        // Lane tx stores word 32 * tx + (ty ^ tx): bank ty ^ tx, a different
        // one for each of the warp's 32 lanes.
        At[tx][ty ^ tx] = row < n && k0 + tx < n ? A[row * n + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < n && col < n ? B[(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
        // A warp shares ty, so every lane reads the same word of At: a broadcast.
        for (int k = 0; k < TILE; ++k)
            sum += At[k][ty ^ k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
}

void matmul(const float *A, const float *B, float *C, int n)
{
    check(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), "cudaDeviceSetSharedMemConfig");
    check(cudaFuncSetSharedMemConfig(matmul_xor_kernel, cudaSharedMemBankSizeEightByte),
          "cudaFuncSetSharedMemConfig");
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_xor_kernel<<<grid, block>>>(A, B, C, n);
    check(cudaGetLastError(), "launch");
}
