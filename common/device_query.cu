// The device's limits, as cudaGetDeviceProperties reports them: what bounds
// how many blocks of a kernel one SM holds at once (threads, blocks,
// registers, shared memory).  Lesson 04's "SM resources and occupancy"
// works from these numbers.
//
//   make query                  this machine's GPU, or the CPU simulator, which
//                               presents the limits of the report's GPU
//   build/<backend>/common/device_query --tsv    name<TAB>value lines, for scripts
//                                                (common/occupancy/occupancy.sh)
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

// One limit: its name in cudaDeviceProp, what it means, its value.
struct limit {
    const char *field, *meaning;
    long long value;
};

int main(int argc, char **argv)
{
    bool tsv = argc > 1 && !strcmp(argv[1], "--tsv");
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    const limit limits[] = {
        {"multiProcessorCount", "multiprocessors (SMs)", p.multiProcessorCount},
        {"warpSize", "threads per warp", p.warpSize},
        {"maxThreadsPerBlock", "threads per block, at most", p.maxThreadsPerBlock},
        {"maxThreadsPerMultiProcessor", "threads per SM, at most", p.maxThreadsPerMultiProcessor},
        {"maxBlocksPerMultiProcessor", "blocks per SM, at most", p.maxBlocksPerMultiProcessor},
        {"regsPerMultiprocessor", "32-bit registers per SM", p.regsPerMultiprocessor},
        {"regsPerBlock", "32-bit registers per block, at most", p.regsPerBlock},
        {"sharedMemPerMultiprocessor", "bytes of shared memory per SM", (long long)p.sharedMemPerMultiprocessor},
        {"sharedMemPerBlock", "bytes of static shared memory per block, at most", (long long)p.sharedMemPerBlock},
        {"sharedMemPerBlockOptin", "bytes of shared memory per block when a kernel opts in",
         (long long)p.sharedMemPerBlockOptin},
        {"reservedSharedMemPerBlock", "bytes of shared memory the system reserves per block",
         (long long)p.reservedSharedMemPerBlock},
        {"l2CacheSize", "bytes of L2 cache", p.l2CacheSize},
    };
    if (tsv) {
        printf("name\t%s\ncompute capability\t%d.%d\n", p.name, p.major, p.minor);
        for (const limit &l : limits)
            printf("%s\t%lld\n", l.field, l.value);
        return 0;
    }
    printf("device %d of %d: %s, compute capability %d.%d\n", device, count, p.name, p.major, p.minor);
#ifdef LAB_SIMULATOR
    printf("(the CPU simulator presents the limits of the GPU the kit's timing report was made on)\n");
#endif
    for (const limit &l : limits)
        printf("  %-52s %12lld   (%s)\n", l.meaning, l.value, l.field);
    return 0;
}
