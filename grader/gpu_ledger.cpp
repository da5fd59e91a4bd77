// The ledger of where C came from, kept by a GPU build of lab_exec (see
// gpu_ledger.h).  The simulator's runtime counts what moves while matmul
// runs; CUDA's does not, so lab_exec is linked with --wrap for the runtime
// calls a product made on the host needs (common/build.mk's lab_exec rule,
// which reads the list from this file's object): every call the student's code makes to one of them
// comes here first, is counted while matmul runs, and goes on to CUDA's own
// (__real_...).  Each call has a second name, chosen by
// CUDA_API_PER_THREAD_DEFAULT_STREAM (_ptds, _ptsz); both are wrapped, so
// that macro is no way around it.
//
// What it counts, as the simulator does:
//   - bytes copied from the device to the host (cudaMemcpy, ...Async, 2D,
//     3D, from a symbol, from an array), by where the copy's pointers lead,
//     whatever kind it names (with unified addressing a copy named device
//     to device may well write pinned host memory);
//   - bytes copied from host memory into device memory by any of these
//     copies or by a copy to a symbol or an array, into C or anywhere else:
//     a product made on the host can reach C through a buffer a kernel
//     copies, once the host has learnt A and B by a way no copy shows (a
//     kernel's printf).  A copy from device memory moves what kernels made
//     (a product computed into a padded or scratch buffer is still the
//     device's) and is not counted;
//   - kernel launches made while memory a kernel can reach from the host
//     exists (cudaMallocHost, cudaHostAlloc, cudaHostRegister,
//     cudaMallocManaged, __managed__ variables).  The simulator looks at
//     each launch's pointers; here a launch's arguments have no types, so a
//     launch counts whenever such memory is in the program at all: a right
//     kernel never needs it.
// What it cannot see, the README says (where it says what the grader
// judges and what it cannot).
#include "gpu_ledger.h"

#include <cuda_runtime_api.h>

namespace {

bool counting;
bool host_memory_in_reach;
matmul_ledger moved;

bool on_device(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); // a pointer CUDA does not know is plain host memory
        return false;
    }
    return a.type == cudaMemoryTypeDevice;
}

// Whether `bytes` of host memory from p are all zero.
bool all_zero(const void *p, size_t bytes)
{
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < bytes; i++)
        if (c[i])
            return false;
    return true;
}

// The rows of a pitched copy's source: `height` rows of `width` bytes,
// `pitch` apart (a plain copy is one row).
struct rows {
    size_t width, pitch, height;
    size_t bytes() const { return width * height; }
};

// One copy from src to dst, judged by where the pointers lead, not by the
// kind the call names: a kind that does not match them is no way around the
// ledger.  A null pointer stands for a symbol or an array, which are on the
// device.  A copy from the host of nothing but zeros clears a buffer, as
// cudaMemset would, and carries nothing: not counted, as the simulator
// does not count it (`zeros_free`; a 3-D copy's source, a pitched volume,
// is not read, and it is always counted).
void count_copy(void *dst, const void *src, rows r, bool zeros_free = true)
{
    if (!counting)
        return;
    bool src_on_device = src == nullptr || on_device(src);
    bool dst_on_device = dst == nullptr || on_device(dst);
    if (src_on_device && !dst_on_device) {
        moved.copied_to_host += r.bytes();
    } else if (!src_on_device && dst_on_device) {
        for (size_t row = 0; row < r.height; row++)
            if (!zeros_free || !all_zero(static_cast<const char *>(src) + row * r.pitch, r.width)) {
                moved.copied_from_host += r.bytes();
                return;
            }
    }
}
void count_copy(void *dst, const void *src, size_t bytes) { count_copy(dst, src, rows{bytes, bytes, 1}); }

void count_launch()
{
    if (counting && host_memory_in_reach)
        moved.host_pointer_launches++;
}

cudaError_t reach(cudaError_t e)
{
    if (e == cudaSuccess)
        host_memory_in_reach = true;
    return e;
}

} // namespace

void gpu_ledger_begin()
{
    moved = matmul_ledger{0, 0, 0};
    counting = true;
}

matmul_ledger gpu_ledger_end()
{
    counting = false;
    return moved;
}

// WRAP(name, suffix, params, counting statement, forwarded arguments):
// __wrap_name and __wrap_name<suffix>, each counting, then calling CUDA's.
#define WRAP_ONE(name, params, count, args)                                                                        \
    extern "C" cudaError_t __real_##name params;                                                                   \
    extern "C" cudaError_t __wrap_##name params                                                                    \
    {                                                                                                              \
        count;                                                                                                     \
        return __real_##name args;                                                                                 \
    }
#define WRAP(name, suffix, params, count, args)                                                                    \
    WRAP_ONE(name, params, count, args)                                                                            \
    WRAP_ONE(name##suffix, params, count, args)

WRAP(cudaMemcpy, _ptds, (void *dst, const void *src, size_t count, cudaMemcpyKind kind),
     count_copy(dst, src, count), (dst, src, count, kind))
WRAP(cudaMemcpyAsync, _ptsz, (void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t s),
     count_copy(dst, src, count), (dst, src, count, kind, s))
WRAP(cudaMemcpy2D, _ptds,
     (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind),
     count_copy(dst, src, rows{width, spitch, height}), (dst, dpitch, src, spitch, width, height, kind))
WRAP(cudaMemcpy2DAsync, _ptsz,
     (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
      cudaStream_t s),
     count_copy(dst, src, rows{width, spitch, height}), (dst, dpitch, src, spitch, width, height, kind, s))
WRAP(cudaMemcpyFromSymbol, _ptds,
     (void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind),
     count_copy(dst, nullptr, count), (dst, symbol, count, offset, kind))
WRAP(cudaMemcpyFromSymbolAsync, _ptsz,
     (void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t s),
     count_copy(dst, nullptr, count), (dst, symbol, count, offset, kind, s))
WRAP(cudaMemcpyToSymbol, _ptds, (const void *symbol, const void *src, size_t count, size_t offset, cudaMemcpyKind kind),
     count_copy(nullptr, src, count), (symbol, src, count, offset, kind))
WRAP(cudaMemcpyToSymbolAsync, _ptsz,
     (const void *symbol, const void *src, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t s),
     count_copy(nullptr, src, count), (symbol, src, count, offset, kind, s))
WRAP(cudaMemcpy2DToArray, _ptds,
     (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
      cudaMemcpyKind kind),
     count_copy(nullptr, src, rows{width, spitch, height}), (dst, wOffset, hOffset, src, spitch, width, height, kind))
WRAP(cudaMemcpy2DToArrayAsync, _ptsz,
     (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
      cudaMemcpyKind kind, cudaStream_t s),
     count_copy(nullptr, src, rows{width, spitch, height}), (dst, wOffset, hOffset, src, spitch, width, height, kind, s))
WRAP(cudaMemcpy2DFromArray, _ptds,
     (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
      cudaMemcpyKind kind),
     count_copy(dst, nullptr, width * height), (dst, dpitch, src, wOffset, hOffset, width, height, kind))
WRAP(cudaMemcpy2DFromArrayAsync, _ptsz,
     (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
      cudaMemcpyKind kind, cudaStream_t s),
     count_copy(dst, nullptr, width * height), (dst, dpitch, src, wOffset, hOffset, width, height, kind, s))
// A 3-D copy's extent is in bytes for linear memory, in elements for an
// array: either way its product bounds what moved well enough to be nonzero.
WRAP(cudaMemcpy3D, _ptds, (const cudaMemcpy3DParms *p),
     count_copy(p->dstPtr.ptr, p->srcPtr.ptr, rows{p->extent.width * p->extent.height * p->extent.depth, 0, 1}, false), (p))
WRAP(cudaMemcpy3DAsync, _ptsz, (const cudaMemcpy3DParms *p, cudaStream_t s),
     count_copy(p->dstPtr.ptr, p->srcPtr.ptr, rows{p->extent.width * p->extent.height * p->extent.depth, 0, 1}, false),
     (p, s))

WRAP(cudaLaunchKernel, _ptsz,
     (const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s), count_launch(),
     (func, grid, block, args, shared, s))
WRAP(cudaLaunchCooperativeKernel, _ptsz,
     (const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s), count_launch(),
     (func, grid, block, args, shared, s))
WRAP(cudaLaunchKernelExC, _ptsz, (const cudaLaunchConfig_t *config, const void *func, void **args), count_launch(),
     (config, func, args))
// What nvcc's code for <<<...>>> calls in CUDA 13 (crt/device_functions.h),
// inside the runtime library, where its own call to cudaLaunchKernel is
// not wrapped.  Defined only when the toolkit's library has it
// (common/build.mk looks), or the link would miss __real___cudaLaunchKernel.
#ifdef GPU_LEDGER_INTERNAL_LAUNCH
WRAP(__cudaLaunchKernel, _ptsz,
     (cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s), count_launch(),
     (kernel, grid, block, args, shared, s))
#endif

// Memory on the host that kernels can reach.
#define WRAP_REACH(name, params, args)                                                                             \
    extern "C" cudaError_t __real_##name params;                                                                   \
    extern "C" cudaError_t __wrap_##name params { return reach(__real_##name args); }
WRAP_REACH(cudaMallocHost, (void **p, size_t bytes), (p, bytes))
WRAP_REACH(cudaHostAlloc, (void **p, size_t bytes, unsigned int flags), (p, bytes, flags))
WRAP_REACH(cudaHostRegister, (void *p, size_t bytes, unsigned int flags), (p, bytes, flags))
WRAP_REACH(cudaMallocManaged, (void **p, size_t bytes, unsigned int flags), (p, bytes, flags))

// A __managed__ variable is registered when the program starts: its host
// name and its device name are the same memory.
extern "C" void __real___cudaRegisterManagedVar(void **handle, void **host_var, char *device_address,
                                                const char *device_name, int ext, size_t size, int constant,
                                                int global);
extern "C" void __wrap___cudaRegisterManagedVar(void **handle, void **host_var, char *device_address,
                                                const char *device_name, int ext, size_t size, int constant,
                                                int global)
{
    host_memory_in_reach = true;
    __real___cudaRegisterManagedVar(handle, host_var, device_address, device_name, ext, size, constant, global);
}
