// Streams, the events' query forms, the device's attributes, and its cache
// and bank-width settings.  The simulator runs each launch and copy at once,
// in the order they are made, so every stream is the default stream under
// another name: work on it is always done, and waiting for an event never
// waits.
#include "runtime_state.h"

struct sim_stream {
    unsigned flags;
};

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream)
        return sim::record_error(cudaErrorInvalidValue);
    *stream = new sim_stream{flags};
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (!stream)
        return sim::record_error(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t) { return sim::sticky_error(); }

cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned int)
{
    return event ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int) { return cudaEventCreate(event); }

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual
               ? cudaSuccess
               : sim::record_error(cudaErrorInvalidValue);
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    return config >= cudaSharedMemBankSizeDefault && config <= cudaSharedMemBankSizeEightByte
               ? cudaSuccess
               : sim::record_error(cudaErrorInvalidValue);
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config)
{
    if (!config)
        return sim::record_error(cudaErrorInvalidValue);
    *config = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attribute, int device)
{
    struct cudaDeviceProp p;
    if (!value)
        return sim::record_error(cudaErrorInvalidValue);
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess)
        return sim::record_error(cudaErrorInvalidDevice);
    switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = (int)p.reservedSharedMemPerBlock; break;
    default:
        sim::report("cudaDeviceGetAttribute: attribute %d is not one the simulator knows", (int)attribute);
        return sim::record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

}  // extern "C"
