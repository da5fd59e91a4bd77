// Error state, events and device queries of the simulated runtime.
#include <time.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "launch_limits.h"
#include "runtime_state.h"

namespace sim {

static cudaError_t last_error = cudaSuccess;
static cudaError_t sticky = cudaSuccess;

cudaError_t record_error(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

void record_sticky_error(cudaError_t e)
{
    if (sticky == cudaSuccess)
        sticky = e;
    last_error = e;
}

cudaError_t sticky_error() { return sticky; }

void report(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[simulator] %s\n", line);
    fflush(stderr);
}

}  // namespace sim

using namespace sim;

extern "C" {

int sim_is_simulator(void) { return 1; }

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = sticky != cudaSuccess ? sticky : last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void) { return sticky != cudaSuccess ? sticky : last_error; }

// Launches run to completion when they are made, so synchronising only has
// a kernel fault left to report.
cudaError_t cudaDeviceSynchronize(void) { return sticky; }

// A GPU's reset destroys the context and every allocation in it: memory
// cudaMalloc gave before is gone, A, B and C included when matmul calls it.
cudaError_t cudaDeviceReset(void)
{
    sticky = last_error = cudaSuccess;
    if (size_t freed = free_all_device_memory())
        report("cudaDeviceReset freed all %zu device allocations, as a GPU's reset does: their pointers (A, B and C "
               "too, if matmul called it) are no longer device memory; a program resets the device at the end of "
               "its main, if at all", freed);
    return cudaSuccess;
}

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorUnsupportedLimit: return "cudaErrorUnsupportedLimit";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    }
    return "cudaErrorUnknown";
}

// The same words as the CUDA runtime, so a student reads one message
// whichever backend ran the kernel.
const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorUnsupportedLimit: return "limit is not supported on this architecture";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorNotSupported: return "operation not supported";
    }
    return "unrecognized error code";
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return record_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return record_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : record_error(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!p || device != 0)
        return record_error(cudaErrorInvalidValue);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "CPU simulator");
    size_t free_bytes;
    cudaMemGetInfo(&free_bytes, &p->totalGlobalMem);
    // The limits of the GPU the kit's timing report names (an H100 SXM,
    // compute capability 9.0), as NVIDIA documents them for that compute
    // capability: `make query` on such a GPU prints the same, so an
    // occupancy worked out here holds there.  Memory is the simulator's own.
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = 132;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->regsPerBlock = 65536;
    p->regsPerMultiprocessor = 65536;
    p->sharedMemPerBlock = 48 * 1024;
    p->sharedMemPerBlockOptin = sim::block_shared_optin(); // launch_limits.h: a smaller GPU's, when asked
    p->sharedMemPerMultiprocessor = 228 * 1024;
    p->reservedSharedMemPerBlock = 1024;
    p->l2CacheSize = 50 * 1024 * 1024;
    p->totalConstMem = 64 * 1024;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    // What the simulator is: a discrete device (a program takes the path
    // it would take on that GPU, copies and all) that maps host memory and
    // shares one address space with the host, with managed memory; kernels
    // may run concurrently (the simulator runs them in order, which CUDA
    // allows); no grid-wide barrier (cooperative_groups::this_grid is a
    // limit of the kit), one board, no PCI address.
    p->integrated = 0;
    p->canMapHostMemory = p->unifiedAddressing = p->managedMemory = 1;
    p->concurrentKernels = 1;
    p->cooperativeLaunch = 0;
    p->isMultiGpuBoard = 0;
    return cudaSuccess;
}

// Events: launches are synchronous, so wall-clock stamps time them exactly.
struct sim_event { double ms; bool recorded; };

static double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    if (!event)
        return record_error(cudaErrorInvalidValue);
    *event = new sim_event{0, false};
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return record_error(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t)
{
    if (!event)
        return record_error(cudaErrorInvalidResourceHandle);
    event->ms = now_ms();
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms || !start || !end)
        return record_error(cudaErrorInvalidValue);
    if (!start->recorded || !end->recorded)
        return record_error(cudaErrorInvalidResourceHandle);
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

}  // extern "C"
