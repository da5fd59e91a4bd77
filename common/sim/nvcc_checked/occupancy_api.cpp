// The occupancy API (occupancy_api.h) for a build nvcc checked: a kernel's
// numbers are nvcc's (kernel_resources.h), the device's are those
// cudaGetDeviceProperties presents (the report's GPU), and the answer is
// worked out by CUDA's own occupancy calculator, the toolkit's
// cuda_occupancy.h, which the build names in SIM_CUDA_OCCUPANCY_H.  So a
// program that sizes its blocks from the occupancy API gets here what it
// gets on that GPU.  Linked only where nvcc checked the lab file, since only
// there are the numbers (common/build.mk).
#include <climits>
#include <cstdio>
#include <cstring>

#include "cuda_sim.h"
#include "launch_limits.h"
#include "runtime_state.h"

#include SIM_CUDA_OCCUPANCY_H

namespace {

// nvcc's numbers for kernel, or null after saying why there are none: a
// kernel the simulator's build cannot match to nvcc's (a static one, or one
// in an anonymous namespace, whose names differ between the two compilers)
// is a limit of the kit, which the program's output says.
const sim::kernel_resources *numbers_for(const void *kernel, const char *asked)
{
    if (!kernel)
        return nullptr;
    const sim::kernel_resources *k = sim::resources_of(kernel);
    if (!k)
        sim::report("kit limit: %s: the simulator has no numbers from nvcc for this kernel (is it static, or in an "
                    "anonymous namespace? nvcc and the simulator's compiler name such a kernel differently, so "
                    "the simulator cannot find it among nvcc's); it answers cudaErrorInvalidDeviceFunction, which "
                    "a GPU would not: run it on a GPU (BACKEND=gpu), or give the kernel external linkage",
                    asked);
    return k;
}

// What the calculator is told of one kernel: its attributes (the largest
// block left open, for the calculator to find), the device, and the
// shared-memory carveout the kernel asked for.
struct question {
    cudaFuncAttributes attributes;
    cudaOccFuncAttributes kernel;
    cudaOccDeviceProp device;
    cudaOccDeviceState state;
};

question about(const void *kernel, const sim::kernel_resources &k)
{
    question q;
    cudaFuncAttributes &a = q.attributes;
    memset(&a, 0, sizeof a);
    bool opted_in;
    a.sharedSizeBytes = (size_t)k.static_shared;
    a.localSizeBytes = (size_t)k.local_bytes;
    a.numRegs = k.registers;
    int arch = 0;
    sscanf(k.gpu, "sm_%d", &arch);
    a.ptxVersion = a.binaryVersion = arch;
    a.maxDynamicSharedSizeBytes = (int)sim::dynamic_shared_limit(kernel, &opted_in);
    a.preferredShmemCarveout = sim::shared_memory_carveout(kernel);
    a.maxThreadsPerBlock = k.max_threads > 0 ? k.max_threads : INT_MAX;
    q.kernel = cudaOccFuncAttributes(a);
    cudaDeviceProp device;
    cudaGetDeviceProperties(&device, 0);
    q.device = cudaOccDeviceProp(device);
    q.state.carveoutConfig = a.preferredShmemCarveout;
    return q;
}

// Blocks of block_size threads and dynamic_shared bytes one SM holds (0:
// none fits), or -1 when the calculator refuses the question.
int blocks_per_sm(const question &q, int block_size, size_t dynamic_shared)
{
    cudaOccResult result;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &q.device, &q.kernel, &q.state, block_size,
                                                dynamic_shared) != CUDA_OCC_SUCCESS)
        return -1;
    return result.activeBlocksPerMultiprocessor;
}

}  // namespace

// The largest block a GPU launches of the kernel: a warp at a time, within
// its __launch_bounds__ and the device's 1024 threads, while its registers
// fit one block's.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attributes, const void *kernel)
{
    const sim::kernel_resources *k = numbers_for(kernel, "cudaFuncGetAttributes");
    if (!k)
        return sim::record_error(cudaErrorInvalidDeviceFunction);
    if (!attributes)
        return sim::record_error(cudaErrorInvalidValue);
    question q = about(kernel, *k);
    int largest = q.attributes.maxThreadsPerBlock < q.device.maxThreadsPerBlock ? q.attributes.maxThreadsPerBlock
                                                                                : q.device.maxThreadsPerBlock;
    int fits = 0;
    for (int size = largest; size > 0 && fits == 0; size = sim::next_block_size_down(size, q.device.warpSize))
        if (blocks_per_sm(q, size, 0) > 0)
            fits = size;
    *attributes = q.attributes;
    attributes->maxThreadsPerBlock = fits;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *kernel, int block_size,
                                                                    size_t dynamic_shared, unsigned flags)
{
    const sim::kernel_resources *k = numbers_for(kernel, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    if (!k)
        return sim::record_error(cudaErrorInvalidDeviceFunction);
    if (!blocks || block_size <= 0 || (flags & ~cudaOccupancyDisableCachingOverride) != 0)
        return sim::record_error(cudaErrorInvalidValue);
    int fit = blocks_per_sm(about(kernel, *k), block_size, dynamic_shared);
    if (fit < 0)
        return sim::record_error(cudaErrorInvalidValue);
    *blocks = fit;
    return cudaSuccess;
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *kernel, int blocks, int block_size)
{
    const sim::kernel_resources *k = numbers_for(kernel, "cudaOccupancyAvailableDynamicSMemPerBlock");
    if (!k)
        return sim::record_error(cudaErrorInvalidDeviceFunction);
    if (!bytes || blocks <= 0 || block_size <= 0)
        return sim::record_error(cudaErrorInvalidValue);
    question q = about(kernel, *k);
    if (cudaOccAvailableDynamicSMemPerBlock(bytes, &q.device, &q.kernel, &q.state, blocks, block_size) !=
        CUDA_OCC_SUCCESS)
        return sim::record_error(cudaErrorInvalidValue);
    return cudaSuccess;
}
