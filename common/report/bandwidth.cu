// bandwidth: what the roofline needs that nvidia-smi does not say, measured
// the simplest honest way and timed with events, as every figure is:
//   - DRAM: large device-to-device copies, each byte read once and written
//     once (a cold L2 before each);
//   - L2: a buffer a quarter of the L2's size read over and over by every
//     SM (warm: it stays in the L2 after the first pass);
//   - shared memory: every block reads its own shared array over and over,
//     16 bytes a lane, no two lanes of a quarter-warp in one bank;
// and the number of SMs.  Prints "name<TAB>value" lines: bandwidth_gbs,
// l2_bandwidth_gbs, shared_bandwidth_gbs, sm_count.
#include <stdio.h>

#include "timing.h"

// Every thread reads `passes` times over the buffer (float4s, grid-stride)
// and keeps a sum, written only if it is impossible, so that no read can
// be dropped by the compiler.
__global__ void read_over_and_over(const float4 *buffer, size_t count, int passes, float *sink)
{
    float sum = 0.0f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += stride) {
            float4 v = __ldcg(buffer + i); // through the L2, not kept in L1
            sum += v.x + v.y + v.z + v.w;
        }
    if (sum == -1.0f)
        *sink = sum;
}

constexpr int SHARED_FLOAT4S = 2048; // 32 KiB a block
constexpr int SHARED_THREADS = 256;

__global__ void __launch_bounds__(SHARED_THREADS) read_shared_over_and_over(int passes, float *sink)
{
    __shared__ float4 tile[SHARED_FLOAT4S];
    for (int i = threadIdx.x; i < SHARED_FLOAT4S; i += blockDim.x)
        tile[i] = make_float4(i, i + 1, i + 2, i + 3);
    __syncthreads();
    float4 sum = make_float4(0, 0, 0, 0);
    // Consecutive lanes read consecutive float4s: each quarter-warp's 128
    // bytes cover the 32 banks once, the fewest wavefronts 16-byte loads
    // allow.  The start moves with the pass, so no load repeats the last.
    for (int p = 0; p < passes; p++) {
#pragma unroll
        for (int j = 0; j < SHARED_FLOAT4S / SHARED_THREADS; j++) {
            float4 v = tile[(threadIdx.x + j * SHARED_THREADS + p * 32) % SHARED_FLOAT4S];
            sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
        }
    }
    if (sum.x + sum.y + sum.z + sum.w == -1.0f)
        *sink = sum.x;
}

int main()
{
    int sms = 0, l2_bytes = 0, device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    float *sink;
    CUDA_CHECK(cudaMalloc((void **)&sink, sizeof(float)));

    const size_t bytes = 1u << 30;
    char *a, *b;
    CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    timing t = time_product([&] { CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    printf("bandwidth_gbs\t%.1f\n", 2.0 * bytes / (t.median_ms * 1e6));

    // A quarter of the L2: it stays there between passes (an L2 is split in
    // halves on some GPUs, each caching what its half of the SMs reads most).
    timing_plan warm;
    warm.flush_l2 = false;
    size_t l2_buffer = (size_t)l2_bytes / 4 / sizeof(float4) * sizeof(float4);
    const int l2_passes = 50;
    CUDA_CHECK(cudaMemset(a, 0, l2_buffer));
    t = time_product(
        [&] { read_over_and_over<<<sms * 8, 256>>>((const float4 *)a, l2_buffer / sizeof(float4), l2_passes, sink); },
        warm);
    printf("l2_bandwidth_gbs\t%.1f\n", (double)l2_buffer * l2_passes / (t.median_ms * 1e6));

    // Six blocks of 32 KiB fit an SM (228 KiB on Hopper), 1536 threads.
    const int shared_passes = 2000, shared_blocks = sms * 6;
    t = time_product([&] { read_shared_over_and_over<<<shared_blocks, SHARED_THREADS>>>(shared_passes, sink); },
                     warm);
    double shared_bytes = (double)shared_blocks * SHARED_THREADS * (SHARED_FLOAT4S / SHARED_THREADS) *
                          sizeof(float4) * shared_passes;
    printf("shared_bandwidth_gbs\t%.1f\n", shared_bytes / (t.median_ms * 1e6));
    printf("sm_count\t%d\n", sms);
    return 0;
}
