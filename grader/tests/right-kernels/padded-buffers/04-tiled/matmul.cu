// Right on a GPU and on the simulator: the other classic answer to edges.
// A and B are copied, on the device, into buffers padded with zeros to a
// multiple of the tile; a kernel with no edge tests multiplies those; the
// product's n x n corner is copied into C.  Every copy is device to device
// (cudaMemcpy2D): the host never sees A, B or the product, and the grader
// must give every point.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

// Whole tiles only: m is a multiple of TILE.
__global__ void tiled_whole(const float *A, const float *B, float *C, int m)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int base = 0; base < m; base += TILE) {
        a_tile[ty][tx] = A[row * m + base + tx];
        b_tile[ty][tx] = B[(base + ty) * m + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    C[row * m + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    int m = (n + TILE - 1) / TILE * TILE;
    size_t row = n * sizeof(float), padded_row = m * sizeof(float), bytes = padded_row * m;
    float *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMalloc(&c, bytes));
    CUDA_CHECK(cudaMemset(a, 0, bytes));
    CUDA_CHECK(cudaMemset(b, 0, bytes));
    CUDA_CHECK(cudaMemcpy2D(a, padded_row, A, row, row, n, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy2D(b, padded_row, B, row, row, n, cudaMemcpyDeviceToDevice));
    dim3 block(TILE, TILE), grid(m / TILE, m / TILE);
    tiled_whole<<<grid, block>>>(a, b, c, m);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy2D(C, row, c, padded_row, row, n, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
}
