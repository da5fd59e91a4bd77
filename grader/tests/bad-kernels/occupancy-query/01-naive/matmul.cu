// Right on a GPU: a stage 01 kernel that asks the occupancy API how many of
// its blocks fit on an SM before it launches, as lesson 04 invites.  The
// simulator answers from nvcc's registers for the kernel; graded without
// nvcc (NVCC_CHECK=0) it has none to answer with, so the grader must call
// this the kit's limit and name where it can be graded, never the
// student's compile error.
#include <stdio.h>

#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    int blocks_per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, naive, 256, 0));
    static bool told = false;
    if (!told)
        fprintf(stderr, "%d blocks of 256 threads per SM\n", blocks_per_sm);
    told = true;
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
