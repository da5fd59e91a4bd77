// cudaDeviceSetLimit and cudaDeviceGetLimit: the device's settings a
// program may read and change.  Each is kept and read back as a GPU's is;
// the heap's size is the one the simulator also uses (malloc in a kernel,
// device_heap.cpp).  The others change nothing here: a CUDA thread's stack
// grows to what local memory allows whatever the stack limit says
// (launch.cpp), and device printf is not buffered.
#include "device_heap.h"
#include "runtime_state.h"

namespace {

// A GPU's values before any call changes them (the stack and the printf
// buffer per CUDA's documentation, the heap's 8 MiB likewise).
size_t limits[] = {
    1024,          // cudaLimitStackSize, bytes a thread
    1024 * 1024,   // cudaLimitPrintfFifoSize
    8 << 20,       // cudaLimitMallocHeapSize
    2,             // cudaLimitDevRuntimeSyncDepth
    2048,          // cudaLimitDevRuntimePendingLaunchCount
    64,            // cudaLimitMaxL2FetchGranularity (a hint: 0 to 128)
    0,             // cudaLimitPersistingL2CacheSize
};
constexpr int limit_count = sizeof limits / sizeof limits[0];

}  // namespace

extern "C" {

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    if ((int)limit < 0 || (int)limit >= limit_count) {
        sim::report("cudaDeviceSetLimit: limit %d is not one CUDA has", (int)limit);
        return sim::record_error(cudaErrorUnsupportedLimit);
    }
    if (limit == cudaLimitMaxL2FetchGranularity && value > 128)
        return sim::record_error(cudaErrorInvalidValue);
    if (limit == cudaLimitMallocHeapSize) {
        cudaError_t e = sim::resize_device_heap(value);
        if (e != cudaSuccess)
            return sim::record_error(e);
    }
    limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    if (!value)
        return sim::record_error(cudaErrorInvalidValue);
    if ((int)limit < 0 || (int)limit >= limit_count)
        return sim::record_error(cudaErrorUnsupportedLimit);
    *value = limits[limit];
    return cudaSuccess;
}

}  // extern "C"
