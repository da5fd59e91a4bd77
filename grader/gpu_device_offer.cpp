// A smaller GPU, on a GPU: what a GPU build of lab_exec reports of the
// shared memory a block may have once its kernel opts in, when the
// grader's small-device test asks for less than the device has.  The
// simulator does the same from the same setting (common/sim/launch_limits.h,
// block_shared_optin); this file is its GPU half, linked as
// gpu_ledger.cpp is: every __wrap_ here takes the student's calls first
// (ld --wrap, grader/lab_exec.mk).
//
// LAB_SHARED_PER_BLOCK_OPTIN (bytes), when set and below what the device
// offers:
//   - cudaGetDeviceProperties's sharedMemPerBlockOptin and
//     cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) say
//     that many bytes;
//   - cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
//     v) with v and the kernel's static shared memory over it fails as the
//     device itself fails a value over its limit: the call goes on to CUDA's
//     own with a value no device takes, so the error is CUDA's, and
//     cudaGetLastError reports it as it would.  A launch asking for more
//     than 48 KiB then fails on the device, as on a GPU that small.
// Unset (or no number), every call goes on to CUDA's unchanged; a number
// under 48 KiB is taken as 48 KiB, as the simulator takes it.  Other ways to learn the
// limit (cudaOccupancyAvailableDynamicSMemPerBlock, the driver API) still
// see the real device: lesson 08 names the two above.
#include <climits>
#include <cstdlib>

#include <cuda_runtime_api.h>

namespace {

// The bytes to offer, or 0: the device as it is.
size_t smaller_offer()
{
    static const size_t offer = [] {
        const char *env = getenv("LAB_SHARED_PER_BLOCK_OPTIN");
        unsigned long long bytes = env && *env ? strtoull(env, nullptr, 10) : 0;
        return bytes && bytes < 48 * 1024 ? (size_t)48 * 1024 : (size_t)bytes;
    }();
    return offer;
}

// The properties CUDA filled in, with the smaller offer where there is one.
cudaError_t offer_less(cudaError_t e, cudaDeviceProp *prop)
{
    if (e == cudaSuccess && smaller_offer() && smaller_offer() < prop->sharedMemPerBlockOptin)
        prop->sharedMemPerBlockOptin = smaller_offer();
    return e;
}

}  // namespace

extern "C" cudaError_t __real_cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
extern "C" cudaError_t __wrap_cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    return offer_less(__real_cudaGetDeviceProperties(prop, device), prop);
}

#if CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
// CUDA 12's headers spell cudaGetDeviceProperties as this one.
extern "C" cudaError_t __real_cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device);
extern "C" cudaError_t __wrap_cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device)
{
    return offer_less(__real_cudaGetDeviceProperties_v2(prop, device), prop);
}
#endif

extern "C" cudaError_t __real_cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
extern "C" cudaError_t __wrap_cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    cudaError_t e = __real_cudaDeviceGetAttribute(value, attr, device);
    if (e == cudaSuccess && attr == cudaDevAttrMaxSharedMemoryPerBlockOptin && smaller_offer() &&
        smaller_offer() < (size_t)*value)
        *value = (int)smaller_offer();
    return e;
}

extern "C" cudaError_t __real_cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
extern "C" cudaError_t __wrap_cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value)
{
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && value > 0 && smaller_offer()) {
        cudaFuncAttributes kernel;
        size_t static_shared = cudaFuncGetAttributes(&kernel, func) == cudaSuccess ? kernel.sharedSizeBytes : 0;
        if ((size_t)value + static_shared > smaller_offer())
            return __real_cudaFuncSetAttribute(func, attr, INT_MAX);
    }
    return __real_cudaFuncSetAttribute(func, attr, value);
}
