// The device's settings and the runtime's identity: the flags a program
// sets (cudaSetDeviceFlags), its cache preference, the versions of the
// runtime and driver, and the choice of a device.  Settings are kept and
// read back as a GPU's are; none changes how the simulator runs (it waits
// for work the same way, whatever the schedule flag asks).
#include <atomic>

#include "runtime_state.h"

namespace {
std::atomic<unsigned> device_flags{cudaDeviceScheduleAuto};
std::atomic<int> cache_config{cudaFuncCachePreferNone};
}  // namespace

extern "C" {

cudaError_t cudaRuntimeGetVersion(int *version)
{
    if (!version)
        return sim::record_error(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// The driver that would run the runtime: the same release.
cudaError_t cudaDriverGetVersion(int *version) { return cudaRuntimeGetVersion(version); }

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    const unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax;
    if ((flags & ~known) != 0 || (flags & cudaDeviceScheduleMask) == 0x03 || (flags & cudaDeviceScheduleMask) > 0x04)
        return sim::record_error(cudaErrorInvalidValue);
    device_flags = flags;
    return cudaSuccess;
}

// As CUDA answers: the flags set, with cudaDeviceMapHost, which a device
// with unified addressing always has.
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return sim::record_error(cudaErrorInvalidValue);
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return sim::record_error(cudaErrorInvalidValue);
    *device = 0;  // the only one
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
        return sim::record_error(cudaErrorInvalidValue);
    cache_config = config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config)
{
    if (!config)
        return sim::record_error(cudaErrorInvalidValue);
    *config = (enum cudaFuncCache)cache_config.load();
    return cudaSuccess;
}

}  // extern "C"
