// Correct, with the loads and stores that tell a GPU's caches what to keep:
// A through L2 only (__ldcg), B as streaming data (__ldcs), C stored as
// streaming (__stcs); a two-argument __launch_bounds__, warpSize, and the
// kernel's own stopwatch (clock64) kept in a __device__ variable.  On the
// simulator each hint is a plain load or store, counted like one.
#include "lab.h"

__device__ long long slowest_thread_ticks;

__global__ void __launch_bounds__(256, 2) naive_with_hints(const float *A, const float *B, float *C, int n)
{
    long long start = clock64();
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += __ldcg(&A[row * n + k]) * __ldcs(&B[k * n + col]);
    __stcs(&C[row * n + col], sum);
    if (threadIdx.x % warpSize == 0)
        atomicMax(&slowest_thread_ticks, clock64() - start);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive_with_hints<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
