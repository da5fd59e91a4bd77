/* The part of the CUDA runtime API that the kit's CPU simulator provides.
 *
 * Plain C, so the harness and the grader (C files) can call the same
 * functions on both backends.  Names, types and error numbers match CUDA's
 * own, so a lab file compiles unchanged against either. */
#ifndef SIM_RUNTIME_API_H
#define SIM_RUNTIME_API_H

#include <stddef.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#define SIM_DEFAULT(v) = v
#else
#define SIM_DEFAULT(v)
#endif

/* The release of CUDA's runtime the simulator stands in for: 13.0. */
#define CUDART_VERSION 13000

/* CUDA's numbers, so messages and codes read the same on both backends. */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorLaunchOutOfResources = 7,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidDevice = 101,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchTimeout = 702,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

/* The attributes cudaFuncSetAttribute takes here, by CUDA's numbers. */
typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
} cudaFuncAttribute;

typedef struct sim_event *cudaEvent_t;
typedef struct sim_stream *cudaStream_t;

/* Flags the simulator accepts and has no use for (one in-order queue). */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
/* The special streams' handles, by CUDA's numbers: both the one queue. */
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
/* Pinned host memory's flags (cudaHostAlloc, cudaHostRegister): accepted;
 * every kind is host memory to the simulator. */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
/* The device's flags (cudaSetDeviceFlags): kept and read back. */
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10

/* The attributes cudaDeviceGetAttribute answers, by CUDA's numbers: the
 * fields of cudaGetDeviceProperties under another name. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrReservedSharedMemoryPerBlock = 111
};

/* Cache preferences, accepted and without effect here. */
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};

/* Shared memory bank widths.  Banks have been four bytes wide since Maxwell,
 * and there CUDA accepts a request for eight-byte banks and ignores it: so
 * does the simulator, whose banks stay four bytes wide (streams.cpp). */
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2
};

/* The fields a lesson uses, by CUDA's names.  The simulator presents the
 * limits of the GPU the kit's report was measured on (runtime_errors.cpp). */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    size_t sharedMemPerBlockOptin;
    size_t sharedMemPerMultiprocessor;
    size_t reservedSharedMemPerBlock;
    int regsPerBlock;
    int regsPerMultiprocessor;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    int multiProcessorCount;
    int l2CacheSize;
    int major, minor;
    /* What kind of device it is (runtime_errors.cpp says why each). */
    size_t totalConstMem;
    int integrated;
    int canMapHostMemory;
    int unifiedAddressing;
    int managedMemory;
    int concurrentKernels;
    int cooperativeLaunch;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    int isMultiGpuBoard;
    int pciBusID, pciDeviceID, pciDomainID;
};

cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream SIM_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventQuery(cudaEvent_t event);
/* Streams: every operation runs at once, in order, so a stream is the
 * default stream under another name (streams.cpp). */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
/* One queue has no priorities: both ends of the range are 0, as CUDA
 * answers for a device without them. */
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags SIM_DEFAULT(0));
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attribute, int device);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
/* The device's settings, by CUDA's numbers: kept and read back; the heap's
 * size is also that of malloc in a kernel (device_limits.cpp). */
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
/* Pitched memory: rows padded to 512 bytes, as a GPU's are (it is device
 * memory like cudaMalloc's), and copies of a rectangle, made row by row with
 * cudaMemcpy (so they are checked, and counted, as its copies are). */
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
/* What memory a pointer points to, by CUDA's numbers: device memory
 * (cudaMalloc's, a __device__ variable's), managed memory, or host memory
 * the runtime did not allocate (cudaMallocHost's is plain host memory to
 * the simulator, and reads as such). */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
/* Memory the host and the kernels share: host memory to the simulator, as
 * cudaMallocHost's is, and cudaFree gives it back (device_memory.cpp). */
cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags SIM_DEFAULT(cudaMemAttachGlobal));

/* Not CUDA: lets a program say which backend it runs on. */
int sim_is_simulator(void);
/* Not CUDA: 1 in a check build (make check), where kernels are instrumented. */
int sim_check_active(void);
/* Not CUDA: where data has gone so far, for the grader, which compares it
 * before and after matmul to see whether C was computed by a kernel on the
 * device or made elsewhere: bytes copied from the device to the host in all
 * (cudaMemcpy and cudaMemcpyFromSymbol), bytes copied from the host into
 * device memory in all (cudaMemcpy and cudaMemcpyToSymbol: a product made on
 * the host reaches C as well through a buffer a kernel copies), and kernel
 * launches given a pointer to host memory (pinned host memory is reachable
 * from a GPU's kernels: a kernel can carry A and B out to the host, and a
 * product made there back into C, without any copy). */
struct sim_ledger {
    unsigned long long copied_to_host, copied_from_host, host_pointer_launches;
};
struct sim_ledger sim_ledger_of(void);
/* Not CUDA: names the allocation at p, a matrix of floats `columns` wide
 * (the harness's A, B and C), so that the simulator's messages say "C[3][17]"
 * and "past the end of C" rather than a byte offset (describe_address). */
void sim_name_allocation(const void *p, const char *name, int columns);
/* Not CUDA: counts a copy between a symbol (host memory here, device
 * memory on a GPU) and `other`, as the ledger counts any copy, by where the
 * pointer leads and not by the kind named: into the symbol from the host
 * (cudaMemcpyToSymbol), or out of it to the host (cudaMemcpyFromSymbol). */
void sim_count_symbol_copy(const void *other, size_t bytes, int into_symbol);

/* cudaFuncSetAttribute with its kernel as an address (below): each kernel
 * has its own limit on dynamic shared memory, as on a GPU
 * (launch_limits.cpp). */
cudaError_t sim_func_set_attribute(const void *kernel, cudaFuncAttribute attribute, int value);

#ifdef __cplusplus
}

/* C++ forms nvcc's runtime header also offers, so a file that compiles with
 * nvcc compiles here too: cudaMalloc(&p, bytes) with `float *p`, symbols
 * (__constant__ and __device__ variables) copied by name, and the stream
 * forms of copies, which the simulator performs at once (it has one
 * in-order queue, as the default stream is). */
template <class T>
inline cudaError_t cudaMalloc(T **ptr, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void **>(ptr), bytes);
}
inline cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    *ptr = malloc(bytes);
    return *ptr || bytes == 0 ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T>
inline cudaError_t cudaMallocManaged(T **ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged(reinterpret_cast<void **>(ptr), bytes, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch(reinterpret_cast<void **>(ptr), pitch, width, height);
}
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t = 0)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **ptr, size_t bytes, cudaStream_t)
{
    return cudaMalloc(reinterpret_cast<void **>(ptr), bytes);
}
inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t) { return cudaFree(ptr); }
template <class T>
inline cudaError_t cudaMallocHost(T **ptr, size_t bytes)
{
    return cudaMallocHost(reinterpret_cast<void **>(ptr), bytes);
}
inline cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}
inline cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    (void)flags;
    return cudaMallocHost(ptr, bytes);
}
template <class T>
inline cudaError_t cudaHostAlloc(T **ptr, size_t bytes, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(ptr), bytes, flags);
}
/* Mapped host memory: a kernel reaches it at the host's own address, as
 * under CUDA's unified addressing; it stays host memory, which the grader's
 * ledger sees a kernel given (sim_ledger). */
inline cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags)
{
    (void)flags;
    if (!device || !host)
        return cudaErrorInvalidValue;
    *device = host;
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T **device, void *host, unsigned int flags)
{
    return cudaHostGetDevicePointer(reinterpret_cast<void **>(device), host, flags);
}
/* Pinning memory the host already has: nothing to do here. */
inline cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags)
{
    (void)bytes, (void)flags;
    return ptr ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaHostUnregister(void *ptr) { return ptr ? cudaSuccess : cudaErrorInvalidValue; }
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    if (offset + bytes > sizeof(T))
        return cudaErrorInvalidValue;
    // A symbol is device memory on a GPU, though not a cudaMalloc block
    // here: what the host writes into it is counted as a copy from the host.
    cudaError_t e = cudaMemcpy(reinterpret_cast<char *>(const_cast<T *>(&symbol)) + offset, src, bytes,
                               kind == cudaMemcpyHostToDevice ? cudaMemcpyHostToHost : cudaMemcpyDefault);
    if (e == cudaSuccess)
        sim_count_symbol_copy(src, bytes, 1);
    return e;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    if (offset + bytes > sizeof(T))
        return cudaErrorInvalidValue;
    // A symbol is device memory on a GPU, though not a cudaMalloc block
    // here: what leaves it for the host is counted as a copy to the host.
    cudaError_t e = cudaMemcpy(dst, reinterpret_cast<const char *>(&symbol) + offset, bytes,
                               kind == cudaMemcpyDeviceToHost ? cudaMemcpyHostToHost : cudaMemcpyDefault);
    if (e == cudaSuccess)
        sim_count_symbol_copy(dst, bytes, 0);
    return e;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                   cudaStream_t = 0)
{
    return cudaMemcpy(dst, src, bytes, kind);
}
inline cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t = 0)
{
    return cudaMemset(ptr, value, bytes);
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T *kernel, enum cudaFuncCache config)
{
    (void)kernel;
    return cudaDeviceSetCacheConfig(config);
}
template <class T>
inline cudaError_t cudaFuncSetSharedMemConfig(T *kernel, enum cudaSharedMemConfig config)
{
    (void)kernel;
    return cudaDeviceSetSharedMemConfig(config);
}
template <class T>
inline cudaError_t cudaFuncSetAttribute(T *kernel, cudaFuncAttribute attribute, int value)
{
    return sim_func_set_attribute(reinterpret_cast<const void *>(kernel), attribute, value);
}
#endif
#undef SIM_DEFAULT
#endif
