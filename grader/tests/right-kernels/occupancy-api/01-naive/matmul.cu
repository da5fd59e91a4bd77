// Right on a GPU and on the simulator wherever nvcc is: the block size
// comes from the occupancy API (cudaOccupancyMaxPotentialBlockSize), as a
// program tuned for any GPU might choose it, and each thread computes the
// element of C its flat index names.  The simulator answers the API from
// the registers nvcc gave the kernel (the right-kernels test skips this
// kernel where there is no nvcc, which makes the API a kit limit).
#include <stdio.h>

#include "lab.h"

__global__ void flat(const float *A, const float *B, float *C, int n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)n * n)
        return;
    int row = (int)(i / n), col = (int)(i % n);
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[i] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    static int threads = 0;
    if (threads == 0) {
        int min_grid = 0, blocks_per_sm = 0;
        cudaFuncAttributes attributes;
        CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, flat));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, flat, threads, 0));
        CUDA_CHECK(cudaFuncGetAttributes(&attributes, flat));
        fprintf(stderr, "flat: %d registers a thread, blocks of %d threads, %d of them per SM, %d to fill the GPU\n",
                attributes.numRegs, threads, blocks_per_sm, min_grid);
    }
    long elements = (long)n * n;
    flat<<<(unsigned)((elements + threads - 1) / threads), threads>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
