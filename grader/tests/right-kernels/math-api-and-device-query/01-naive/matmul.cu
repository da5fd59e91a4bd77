// Right on a GPU and on the simulator: the naive kernel as a student who
// explores the API might write it.  The launcher prints what it runs on
// once (runtime and driver versions, the device's properties and flags),
// checks that A is device memory (cudaPointerGetAttributes), marks its work
// for a profiler's timeline (cudaProfilerStart, an NVTX range), launches on
// the per-thread default stream, and keeps a pinned, mapped scratch word it
// never hands a kernel.  The kernel uses CUDA's math
// functions beyond C's (rsqrtf, sinpif, norm3df, umin), conversions with a
// rounding direction, bit tricks (__byte_perm, __funnelshift_l, __brevll),
// a warp reduction and a match, a system-wide fence: each contributes an
// exact 0 or 1 to the product, so the product is the plain one.
#include <cstdio>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include "lab.h"

#define CALL_OK(call)                                                                           \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess)                                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));          \
    } while (0)

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    bool inside = row < n && col < n;
    // Every lane of the warp takes part in the warp's calls, inside or not.
    unsigned lanes_inside = __reduce_add_sync(0xffffffffu, inside ? 1u : 0u);
    unsigned same_row = __match_any_sync(0xffffffffu, row);
    if (!inside)
        return;
    float one = rsqrtf(1.0f) * sinpif(0.5f) * norm3df(0.0f, 0.6f, 0.8f);   // 1 * 1 * 1
    float zero = (float)(__float2int_rd(0.75f) + __double2ll_ru(-0.5))       // 0 + 0
                 + (float)(__byte_perm(0x01000000u, 0u, 0x4444u)            // 0
                           + (__funnelshift_l(0u, 0u, 7u) | (unsigned)(__brevll(0ull))));
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum * one + zero + (float)(umin(lanes_inside, 0u) + (same_row == 0u));
    __threadfence_system();
}

void matmul(const float *A, const float *B, float *C, int n)
{
    static bool told = false;
    if (!told) {
        int runtime = 0, driver = 0;
        unsigned flags = 0;
        cudaDeviceProp prop;
        CALL_OK(cudaRuntimeGetVersion(&runtime));
        CALL_OK(cudaDriverGetVersion(&driver));
        CALL_OK(cudaGetDeviceFlags(&flags));
        CALL_OK(cudaGetDeviceProperties(&prop, 0));
        printf("runtime %d, driver %d, %s: %d SMs, %zu bytes of constant memory, unified addressing %d, flags %#x\n",
               runtime, driver, prop.name, prop.multiProcessorCount, prop.totalConstMem, prop.unifiedAddressing, flags);
        told = true;
    }
    cudaPointerAttributes where;
    CALL_OK(cudaPointerGetAttributes(&where, A));
    if (where.type != cudaMemoryTypeDevice)
        fprintf(stderr, "A is not device memory\n");
    CALL_OK(cudaProfilerStart());
    nvtxRangePushA("matmul");
    unsigned *scratch = nullptr, *scratch_on_device = nullptr;
    CALL_OK(cudaHostAlloc(&scratch, sizeof *scratch, cudaHostAllocMapped));
    CALL_OK(cudaHostGetDevicePointer(&scratch_on_device, scratch, 0));
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block, 0, cudaStreamPerThread>>>(A, B, C, n);
    CALL_OK(cudaGetLastError());
    CALL_OK(cudaStreamSynchronize(cudaStreamPerThread));
    CALL_OK(cudaFreeHost(scratch));
    nvtxRangePop();
    CALL_OK(cudaProfilerStop());
}
