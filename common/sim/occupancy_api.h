// The occupancy API: cudaFuncGetAttributes and cudaOccupancy*, which answer
// from what the compiler gave a kernel (registers, shared and local memory)
// and the device's limits.  The simulator compiles kernels for the CPU and
// has those numbers only where nvcc checked the lab file (NVCC_CHECK,
// common/backend.mk): there the build defines SIM_OCCUPANCY_API and links
// nvcc_checked/occupancy_api.cpp, which answers from nvcc's numbers
// (kernel_resources.h) and the limits cudaGetDeviceProperties presents, by
// CUDA's own occupancy calculator (cuda_occupancy.h).  Elsewhere a program
// that asks is told so when it is compiled: a limit of the kit, not a
// mistake in the code.  Included by cuda_sim.h, where SIM_NOT_SIMULATED is
// defined.
#pragma once

#include <cstddef>

struct cudaFuncAttributes {
    size_t sharedSizeBytes;  // static __shared__ arrays, bytes
    size_t constSizeBytes;   // __constant__ memory: not known here, 0
    size_t localSizeBytes;   // local memory a thread, bytes (its stack frame)
    int maxThreadsPerBlock;  // the largest block it can launch: registers, __launch_bounds__
    int numRegs;
    int ptxVersion, binaryVersion;  // 90 for sm_90
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;  // what a launch may ask for now
    int preferredShmemCarveout;     // -1 unless cudaFuncSetAttribute set one
    int clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight, requiredClusterDepth,
        clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
    int reserved[16];
};

#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01

#ifdef SIM_OCCUPANCY_API

// The C forms, a kernel given by its address.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attributes, const void *kernel);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *kernel, int block_size,
                                                                    size_t dynamic_shared, unsigned flags);
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *kernel, int block_size,
                                                                  size_t dynamic_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, kernel, block_size, dynamic_shared,
                                                                  cudaOccupancyDefault);
}
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *kernel, int blocks, int block_size);

// The C++ forms nvcc's runtime header adds, a kernel given as itself.
template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attributes, T *kernel)
{
    return cudaFuncGetAttributes(attributes, reinterpret_cast<const void *>(kernel));
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T kernel, int block_size,
                                                                  size_t dynamic_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks, reinterpret_cast<const void *>(kernel), block_size, dynamic_shared, cudaOccupancyDefault);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, T kernel, int block_size,
                                                                           size_t dynamic_shared, unsigned flags)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, reinterpret_cast<const void *>(kernel),
                                                                  block_size, dynamic_shared, flags);
}
template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, T kernel, int blocks, int block_size)
{
    return cudaOccupancyAvailableDynamicSMemPerBlock(bytes, reinterpret_cast<const void *>(kernel), blocks,
                                                     block_size);
}

namespace sim {
// The block size a search for the largest fitting block tries after size:
// the next whole number of warps below it (a search starts from a limit
// that need not be a multiple of a warp, such as a __launch_bounds__ of 100).
inline int next_block_size_down(int size, int warp_size)
{
    return (size - 1) / warp_size * warp_size;
}

// The block size that keeps the most threads of kernel on an SM: every
// multiple of a warp up to the largest block the kernel can launch (and
// block_size_limit, when above 0) is tried, from the largest down, and the
// first with the most resident threads wins; *grid is the smallest grid
// that fills every SM with such blocks.  shared_for(size) is the dynamic
// shared memory a block of that size asks for.
template <class SharedFor>
cudaError_t potential_block_size(int *grid, int *block, const void *kernel, SharedFor shared_for,
                                 int block_size_limit, unsigned flags)
{
    if (!grid || !block)
        return cudaErrorInvalidValue;
    cudaFuncAttributes attributes;
    cudaDeviceProp device;
    int ordinal = 0;
    cudaError_t e = cudaFuncGetAttributes(&attributes, kernel);
    if (e == cudaSuccess)
        e = cudaGetDevice(&ordinal);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&device, ordinal);
    if (e != cudaSuccess)
        return e;
    int largest = attributes.maxThreadsPerBlock < device.maxThreadsPerBlock ? attributes.maxThreadsPerBlock
                                                                            : device.maxThreadsPerBlock;
    if (block_size_limit > 0 && block_size_limit < largest)
        largest = block_size_limit;
    int best_threads = 0, best_size = 0, best_blocks = 0;
    for (int size = largest; size > 0; size = next_block_size_down(size, device.warpSize)) {
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, kernel, size, shared_for(size), flags);
        if (e != cudaSuccess)
            return e;
        if (blocks * size > best_threads) {
            best_threads = blocks * size;
            best_size = size;
            best_blocks = blocks;
        }
    }
    *block = best_size;
    *grid = best_blocks * device.multiProcessorCount;
    return cudaSuccess;
}
}  // namespace sim

template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, T kernel,
                                                               size_t dynamic_shared = 0, int block_size_limit = 0,
                                                               unsigned flags = cudaOccupancyDefault)
{
    return sim::potential_block_size(
        grid, block, reinterpret_cast<const void *>(kernel), [dynamic_shared](int) { return dynamic_shared; },
        block_size_limit, flags);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, T kernel, size_t dynamic_shared = 0,
                                                      int block_size_limit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeWithFlags(grid, block, kernel, dynamic_shared, block_size_limit);
}
template <class SharedFor, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *grid, int *block, T kernel,
                                                                           SharedFor shared_for,
                                                                           int block_size_limit = 0,
                                                                           unsigned flags = cudaOccupancyDefault)
{
    return sim::potential_block_size(
        grid, block, reinterpret_cast<const void *>(kernel), [&](int size) { return (size_t)shared_for(size); },
        block_size_limit, flags);
}
template <class SharedFor, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *grid, int *block, T kernel,
                                                                  SharedFor shared_for, int block_size_limit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(grid, block, kernel, shared_for,
                                                                   block_size_limit);
}

#else

#define SIM_OCCUPANCY_QUERY(name)                                                                             \
    SIM_NOT_SIMULATED(cudaError_t, name,                                                                      \
                      "the occupancy API (cudaOccupancy*, cudaFuncGetAttributes) is not simulated: it answers "  \
                      "from the registers nvcc gives the kernel, and in a build without nvcc (no CUDA toolkit "  \
                      "here, or NVCC_CHECK=0) the CPU simulator has none, a limit of the kit, not a mistake in " \
                      "your code; build where the CUDA toolkit is, or run it on a GPU (BACKEND=gpu)")
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxActiveBlocksPerMultiprocessor)
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxPotentialBlockSize)
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxPotentialBlockSizeWithFlags)
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxPotentialBlockSizeVariableSMem)
SIM_OCCUPANCY_QUERY(cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags)
SIM_OCCUPANCY_QUERY(cudaOccupancyAvailableDynamicSMemPerBlock)
SIM_OCCUPANCY_QUERY(cudaFuncGetAttributes)
#undef SIM_OCCUPANCY_QUERY

#endif
