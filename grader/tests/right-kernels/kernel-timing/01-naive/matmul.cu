// Right on a GPU and on the simulator: the naive kernel timing itself, as a
// student measuring a change might: each thread's clock64() ticks, the
// largest kept (atomicMax) in a 32-bit __device__ variable that matmul
// copies back and prints; clock(), a __nanosleep and an alignment the
// compiler may assume (__builtin_assume_aligned) besides.  Four bytes back
// to the host are a number of the student's own, not the product (the
// host could compute no element of C from them): every point is due.
#include <cstdio>
#include "lab.h"

__device__ unsigned int slowest_thread_ticks;

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    long long start = clock64();
    clock_t coarse_start = clock();
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    const float *a = static_cast<const float *>(__builtin_assume_aligned(A, 16));
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum = __fmaf_rn(__ldg(&a[row * n + k]), __ldg(&B[k * n + col]), sum);
    C[row * n + col] = sum;
    if (clock() < coarse_start)
        __nanosleep(100);  // never: the clock only goes up
    atomicMax(&slowest_thread_ticks, (unsigned int)(clock64() - start));
}

void matmul(const float *A, const float *B, float *C, int n)
{
    const unsigned int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(slowest_thread_ticks, &zero, sizeof zero));
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
    unsigned int ticks = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&ticks, slowest_thread_ticks, sizeof ticks));
    if (n >= 1000)
        fprintf(stderr, "n = %d: the slowest thread took %u clock ticks\n", n, ticks);
}
