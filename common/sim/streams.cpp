// Streams, the events' query forms, the device's attributes, and its
// bank-width setting.  The simulator runs each launch and copy at once,
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

// One queue has no priorities: any priority asked for is taken as the only
// one, 0 (CUDA clamps a priority to the device's range).
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int)
{
    return cudaStreamCreateWithFlags(stream, flags);
}

// The default stream (0) and the special handles are no stream a program
// created, so there is nothing of theirs to free or to read.
static bool is_special(cudaStream_t stream)
{
    return stream == 0 || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    if (!flags)
        return sim::record_error(cudaErrorInvalidValue);
    *flags = is_special(stream) ? cudaStreamDefault : stream->flags;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t, int *priority)
{
    if (!priority)
        return sim::record_error(cudaErrorInvalidValue);
    *priority = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (is_special(stream))
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
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    default:
        sim::report("cudaDeviceGetAttribute: attribute %d is not one the simulator knows", (int)attribute);
        return sim::record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

}  // extern "C"
