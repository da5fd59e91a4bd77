// Correct stage 04, written with more of the runtime API than the lab asks
// for: the tile width checked with cudaDeviceGetAttribute, a stream of its
// own with events made with flags, a cache preference, a scratch copy of
// nothing through cudaMallocAsync, and fast-math intrinsics (dividing by
// one and a bit-exact round trip, both exact on a GPU too).  nvcc compiles it and the simulator
// must too, and grade it full marks: a file right on one backend must not
// fail to compile on the other.
#include "lab.h"

#ifndef TILE
#define TILE 16
#endif

__global__ void tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int phase = 0; phase < (n + TILE - 1) / TILE; phase++) {
        int a_col = phase * TILE + threadIdx.x, b_row = phase * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < n && a_col < n ? A[row * n + a_col] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = b_row < n && col < n ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = __fdividef(__int_as_float(__float_as_int(sum)), 1.0f);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    int most_threads = 0, device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&most_threads, cudaDevAttrMaxThreadsPerBlock, device));
    if (TILE * TILE > most_threads)
        return;  // cannot happen for TILE <= 32; the check is the point
    CUDA_CHECK(cudaFuncSetCacheConfig(tiled, cudaFuncCachePreferShared));

    cudaStream_t stream;
    cudaEvent_t done;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    float *scratch = nullptr;
    CUDA_CHECK(cudaMallocAsync(&scratch, sizeof(float), stream));

    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tiled<<<grid, block, 0, stream>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(done, stream));
    CUDA_CHECK(cudaStreamWaitEvent(0, done, 0));
    CUDA_CHECK(cudaFreeAsync(scratch, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (cudaEventQuery(done) != cudaSuccess || cudaStreamQuery(stream) != cudaSuccess)
        return;  // the work is done once the stream is synchronised
    CUDA_CHECK(cudaEventDestroy(done));
    CUDA_CHECK(cudaStreamDestroy(stream));
}
