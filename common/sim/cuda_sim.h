// The CUDA C++ language subset a lab file uses, for the CPU simulator.
//
// A lab's .cu file is compiled by g++ or clang++ with this header in place of
// the toolkit's.  Launches `k<<<g, b>>>(args)` have already been rewritten
// (see rewrite_launch.c) into `k % sim_cfg(g, b)(args)`: sim_cfg captures the
// configuration, its call operator captures the arguments, and operator%
// hands kernel, configuration and arguments to the block scheduler.  CUDA's
// reserved names were renamed on the way (`__global__` is SIM_GLOBAL here,
// `__syncthreads` sim_syncthreads; cuda_spellings.h has the list and says
// why): nothing here defines a name the compiler or its library owns.
#ifndef CUDA_SIM_H
#define CUDA_SIM_H

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <ctime>
#include <tuple>
#include <type_traits>
#include <utility>

#include "engine.h"

// malloc, free, memcpy and memset as a lab file spells them
// (cuda_spellings.h; engine.h says what each does): std:: ones too.
namespace std {
using ::sim_kernel_free;
using ::sim_kernel_malloc;
using ::sim_memcpy;
using ::sim_memset;
}  // namespace std

#ifdef LAB_CHECK_MODE
// Check builds keep kernels out of line, so their accesses are the
// kernel's own, and turn checking on before main runs.
#define SIM_GLOBAL __attribute__((noinline))
static const bool sim_check_mode_on_ = (sim_check_enable(), true);
#else
#define SIM_GLOBAL
#endif
#ifdef __clang__
#define SIM_NOT_CHECKED __attribute__((no_sanitize("coverage")))
#else
#define SIM_NOT_CHECKED
#endif
#define SIM_DEVICE
#define SIM_HOST
#define SIM_FORCEINLINE inline
#define SIM_NOINLINE __attribute__((noinline))
#define SIM_LAUNCH_BOUNDS(...)
#define SIM_ALIGN(bytes) __attribute__((aligned(bytes)))
// What nvcc defines (cuda_spellings.h): a CUDA compiler, compiling for the
// device the simulator presents (compute capability 9.0, as
// cudaGetDeviceProperties says).  Kernels run as the device's code; so do
// __host__ __device__ functions called from the host, whose device branch
// uses only what the simulator provides on the host as well.
#define SIM_CUDACC 1
#define SIM_NVCC 1
#define SIM_CUDA_ARCH 900
// nvcc's release, the runtime's (CUDART_VERSION, sim_runtime_api.h).
#define SIM_CUDACC_VER_MAJOR (CUDART_VERSION / 1000)
#define SIM_CUDACC_VER_MINOR (CUDART_VERSION % 1000 / 10)
// One copy per OS thread; a block's threads all run on one OS thread, so
// each block sees its own array (see launch.cpp).
// Aligned like a GPU's shared memory, so bank numbers in check mode match.
// No `static`: thread_local in a function implies it, and CUDA lets a file
// write `static __shared__`, which would then say static twice.
#define SIM_SHARED thread_local __attribute__((aligned(128)))
// `__shared__ alignas(16) float t[...]`, which nvcc takes, would put a
// standard attribute after thread_local, which C++ forbids; the rewrite
// respells that alignas, and every shared array is already aligned to 128
// bytes, more than any vector type needs.
#define SIM_ALIGNAS(...)
// Written by the host (cudaMemcpyToSymbol) before a launch, read by every
// block: one copy for the whole program, in a section of its own so that
// check mode knows these reads for constant memory (check_mode.cpp).
#define SIM_CONSTANT __attribute__((section("sim_constant_symbols")))
// Memory the host and every kernel share: an ordinary global here, which
// the rewrite registers (rewrite_launch.c, register_managed_variable).
#define SIM_MANAGED

// What the rewrite writes after a `__device__` or `__managed__` variable's
// declaration (kind: device or managed), named afresh at each use.
#define SIM_JOIN_(a, b) a##b
#define SIM_JOIN(a, b) SIM_JOIN_(a, b)
#define SIM_REGISTER_VARIABLE(kind, name)                                                                   \
    [[maybe_unused]] static const bool SIM_JOIN(sim_registered_variable_, __COUNTER__) =                    \
        ::sim::register_##kind##_variable(&(name), sizeof(name));

namespace sim {

// A kernel argument as an address, when it is a pointer to data.
template <class T>
const void *data_pointer_or_null(const T &v)
{
    if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>)
        return const_cast<const void *>(static_cast<const volatile void *>(v));  // volatile T * too
    else
        return nullptr;
}

template <class... P>
struct kernel_closure {
    void (*kernel)(P...);
    std::tuple<P...> args;
    // Each CUDA thread gets its own copy of the arguments, as on a GPU.
    SIM_NOT_CHECKED static void run(void *self)
    {
        auto *c = static_cast<kernel_closure *>(self);
        std::apply(c->kernel, c->args);
    }
};

template <class... A>
struct pending_launch {
    dim3 grid, block;
    size_t dynamic_shared;
    kernel_site site;
    std::tuple<A...> args;
};

}  // namespace sim

// The launch configuration of `<<<grid, block, shared_bytes, stream>>>`.
struct sim_cfg {
    dim3 grid, block;
    size_t dynamic_shared;
    sim::kernel_site site;
    sim_cfg(dim3 g, dim3 b, size_t shared_bytes = 0, cudaStream_t = nullptr,
            const char *file = __builtin_FILE(), int line = __builtin_LINE())
        : grid(g), block(b), dynamic_shared(shared_bytes), site{file, line} {}
    template <class... A>
    sim::pending_launch<std::decay_t<A>...> operator()(A &&...a) const
    {
        return {grid, block, dynamic_shared, site, std::tuple<std::decay_t<A>...>(std::forward<A>(a)...)};
    }
};

namespace sim {
// What CUDA has and the simulator does not run is refused where a program
// calls it, with why, by a static_assert on this (always false, but only
// once a call instantiates it): a limit of the kit, never the code's mistake.
template <class... A>
constexpr bool not_simulated = false;

// One launch of kernel, with each thread's copy of the arguments, however
// the program asked for it (`<<<...>>>`, cudaLaunchKernel).
template <class... P, class... A>
cudaError_t launch_kernel(void (*kernel)(P...), pending_launch<A...> &&l)
{
    static_assert(sizeof...(A) <= sizeof...(P), "kernel launched with more arguments than it has parameters");
    // nvcc fills in a kernel's default arguments at the launch; here the
    // kernel is known by its address alone, which does not carry them.
    static_assert(sizeof...(A) >= sizeof...(P),
                  "a kernel launch that leaves parameters to their default arguments is not simulated: the "
                  "simulator knows the kernel by its address, which does not carry them, a limit of the kit "
                  "(unless the kernel has no defaults and the launch is missing arguments); pass every "
                  "argument, or run and grade it on a GPU (BACKEND=gpu)");
    if constexpr (sizeof...(A) == sizeof...(P)) {
        kernel_closure<P...> closure{kernel, std::tuple<P...>(std::move(l.args))};
        std::apply([&l](const P &...a) {
            const void *pointers[] = {nullptr, data_pointer_or_null(a)...};
            note_launch_pointers(pointers + 1, sizeof...(P), l.site.file, l.site.line);
        }, closure.args);
        return launch(l.grid, l.block, l.dynamic_shared, &kernel_closure<P...>::run, &closure, l.site,
                      reinterpret_cast<const void *>(kernel));
    }
    return cudaErrorInvalidValue;  // not reached: refused when compiled
}

// cudaLaunchKernel's arguments, args[i] pointing to the i-th: each read
// as the type of the kernel's parameter i.
template <class... P, size_t... I>
cudaError_t launch_from_pointers(void (*kernel)(P...), const sim_cfg &cfg, void **args, std::index_sequence<I...>)
{
    return launch_kernel(kernel, cfg(*static_cast<std::remove_cv_t<P> *>(args[I])...));
}
}  // namespace sim

template <class... P, class... A>
void operator%(void (*kernel)(P...), sim::pending_launch<A...> &&l)
{
    sim::launch_kernel(kernel, std::move(l));
}

// cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream): the
// form of CUDA's C++ API (cuda_runtime.h), whose kernel's type says how to
// read each argument; the same launch as `kernel<<<grid, block,
// shared_bytes, stream>>>(...)`, its error returned.
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return sim::launch_from_pointers(kernel, sim_cfg(grid, block, shared_bytes, stream, file, line), args,
                                     std::index_sequence_for<P...>{});
}
// Its C form takes the kernel as a pointer to void, which does not say what
// the arguments are; the simulator, which calls the kernel as a C++
// function, needs to know.
template <class... A>
cudaError_t cudaLaunchKernel(const void *, A...)
{
    static_assert(sim::not_simulated<A...>,
                  "cudaLaunchKernel with the kernel as a pointer to void (its C form) is not simulated: the CPU "
                  "simulator calls a kernel as a C++ function and needs its parameter types, which a void "
                  "pointer does not carry, a limit of the kit, not a mistake in your code; pass the kernel "
                  "itself, cudaLaunchKernel(kernel, grid, block, args, ...), as CUDA's C++ form takes it, or "
                  "run and grade it on a GPU (BACKEND=gpu)");
    return cudaErrorInvalidValue;
}

#define threadIdx (::sim::current_thread->thread_idx)
#define blockIdx (::sim::current_block->block_idx)
#define blockDim (::sim::current_block->block_dim)
#define gridDim (::sim::current_block->grid_dim)
// A constant, not a macro: host code reads cudaDeviceProp::warpSize too.
constexpr int warpSize = 32;

inline void sim_syncthreads() { sim::barrier(); }
inline int sim_syncthreads_count(int predicate) { return (int)sim::barrier_count(predicate); }
inline int sim_syncthreads_and(int predicate)
{
    return sim::barrier_count(predicate) == blockDim.x * blockDim.y * blockDim.z;
}
inline int sim_syncthreads_or(int predicate) { return sim::barrier_count(predicate) != 0; }
// In a check build a fence also tells the race check between blocks that
// they hand data over on purpose (check_mode.cpp).
inline void sim_threadfence()
{
#ifdef LAB_CHECK_MODE
    sim::check_fence();
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void sim_threadfence_block() {}
// The system's scope (the host and other devices too) is the device's here.
inline void sim_threadfence_system() { sim_threadfence(); }
// A sleep of up to ns nanoseconds may be none at all (as on a GPU); clock()
// is the C library's, whose header CUDA's include as well.
inline void sim_nanosleep(unsigned) {}

// CUDA's arithmetic in the global namespace: min and max, the intrinsics
// (__fmaf_rn, __popc, __float2int_rn, ...) and the math functions C++ lacks.
#include "device_math.h"

// __ldg and the cache-hint loads and stores (__ldcg: cache in L2 only,
// __stcs: streaming, ...): which caches a GPU keeps the data in; on the
// CPU, a plain read or write, counted by check mode like any other.
#define SIM_CACHE_HINT_LOAD(name) \
    template <class T>            \
    inline T name(const T *p) { return *p; }
SIM_CACHE_HINT_LOAD(sim_ldg)
SIM_CACHE_HINT_LOAD(sim_ldca)
SIM_CACHE_HINT_LOAD(sim_ldcg)
SIM_CACHE_HINT_LOAD(sim_ldcs)
SIM_CACHE_HINT_LOAD(sim_ldlu)
SIM_CACHE_HINT_LOAD(sim_ldcv)
#undef SIM_CACHE_HINT_LOAD
namespace sim {
template <class T>
struct same_type { using type = T; };
}
// The value's type is not deduced, so it converts to *p's as CUDA's
// overloads let it (__stcs(&c[i], 0) for a float c).
#define SIM_CACHE_HINT_STORE(name) \
    template <class T>             \
    inline void name(T *p, const typename sim::same_type<T>::type &value) { *p = value; }
SIM_CACHE_HINT_STORE(sim_stwb)
SIM_CACHE_HINT_STORE(sim_stcg)
SIM_CACHE_HINT_STORE(sim_stcs)
SIM_CACHE_HINT_STORE(sim_stwt)
#undef SIM_CACHE_HINT_STORE
// clock() and clock64(): an SM's cycle counter on a GPU, a kernel's own
// stopwatch; here nanoseconds of a steady clock, which also only go up.
// (clock() of the C library, the process's CPU time, serves as it is.)
inline long long clock64() { return sim::steady_nanoseconds(); }

// Warp-level primitives: the lanes a mask names meet (launch.cpp runs the
// block's other threads until the last of them arrives) and each gets what
// CUDA's rules give it (warp_ops.h).  Any value of up to 8 bytes travels as
// its bits, as the hardware's 32- and 64-bit shuffles carry them.
namespace sim {
template <class T>
inline uint64_t warp_bits(T value)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "a warp shuffle carries a value of at most 8 bytes (int, float, double, long long, ...)");
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &value, sizeof value);
    return bits;
}

template <class T>
inline T warp_shuffle(warp_op op, unsigned mask, T value, int arg, int width)
{
    uint64_t bits = warp_collective(warp_call{op, mask, warp_bits(value), arg, width});
    T out;
    __builtin_memcpy(&out, &bits, sizeof out);
    return out;
}

// A vote (__ballot_sync, __any_sync, __all_sync) over each lane's predicate.
inline uint64_t warp_vote(warp_op op, unsigned mask, int predicate)
{
    return warp_collective(warp_call{op, mask, predicate != 0, 0, 32});
}
}  // namespace sim

inline void sim_warp_syncwarp(unsigned mask = 0xffffffffu)
{
    sim::warp_collective(sim::warp_call{sim::warp_op::sync, mask, 0, 0, 32});
}
template <class T>
inline T sim_warp_shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize)
{
    return sim::warp_shuffle(sim::warp_op::shfl, mask, var, src_lane, width);
}
template <class T>
inline T sim_warp_shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize)
{
    return sim::warp_shuffle(sim::warp_op::shfl_up, mask, var, (int)delta, width);
}
template <class T>
inline T sim_warp_shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize)
{
    return sim::warp_shuffle(sim::warp_op::shfl_down, mask, var, (int)delta, width);
}
template <class T>
inline T sim_warp_shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize)
{
    return sim::warp_shuffle(sim::warp_op::shfl_xor, mask, var, lane_mask, width);
}
inline unsigned sim_warp_ballot_sync(unsigned mask, int predicate)
{
    return (unsigned)sim::warp_vote(sim::warp_op::ballot, mask, predicate);
}
inline int sim_warp_any_sync(unsigned mask, int predicate) { return (int)sim::warp_vote(sim::warp_op::any, mask, predicate); }
inline int sim_warp_all_sync(unsigned mask, int predicate) { return (int)sim::warp_vote(sim::warp_op::all, mask, predicate); }
// Reductions over the lanes of the mask (compute capability 8.0 and up):
// add, min and max of unsigned or int values, and, or and xor of unsigned.
#define SIM_WARP_REDUCE(name, op, T, is_signed)                                                           \
    inline T name(unsigned mask, T value)                                                                  \
    {                                                                                                      \
        return (T)sim::warp_collective(sim::warp_call{sim::warp_op::op, mask, (uint32_t)value, is_signed, 32}); \
    }
SIM_WARP_REDUCE(sim_warp_reduce_add_sync, reduce_add, unsigned, 0)
SIM_WARP_REDUCE(sim_warp_reduce_add_sync, reduce_add, int, 1)
SIM_WARP_REDUCE(sim_warp_reduce_min_sync, reduce_min, unsigned, 0)
SIM_WARP_REDUCE(sim_warp_reduce_min_sync, reduce_min, int, 1)
SIM_WARP_REDUCE(sim_warp_reduce_max_sync, reduce_max, unsigned, 0)
SIM_WARP_REDUCE(sim_warp_reduce_max_sync, reduce_max, int, 1)
SIM_WARP_REDUCE(sim_warp_reduce_and_sync, reduce_and, unsigned, 0)
SIM_WARP_REDUCE(sim_warp_reduce_or_sync, reduce_or, unsigned, 0)
SIM_WARP_REDUCE(sim_warp_reduce_xor_sync, reduce_xor, unsigned, 0)
#undef SIM_WARP_REDUCE
// The lanes of the mask whose value has the same bits as this lane's; all:
// the mask if every lane's does (*pred set), else 0.
template <class T>
inline unsigned sim_warp_match_any_sync(unsigned mask, T value)
{
    return (unsigned)sim::warp_collective(sim::warp_call{sim::warp_op::match_any, mask, sim::warp_bits(value), 0, 32});
}
template <class T>
inline unsigned sim_warp_match_all_sync(unsigned mask, T value, int *pred)
{
    unsigned r =
        (unsigned)sim::warp_collective(sim::warp_call{sim::warp_op::match_all, mask, sim::warp_bits(value), 0, 32});
    *pred = r != 0;
    return r;
}
// Names CUDA has and the simulator does not run are refused when a program
// calls them (sim::not_simulated, above), as a limit of the kit rather than
// a mistake in the code.
// Inline assembly: PTX instructions, which only a GPU runs.  The launch
// rewriter (rewrite_launch.c) puts this in place of each asm statement.
#define SIM_INLINE_ASSEMBLY                                                                                   \
    static_assert(sim::not_simulated<>,                                                                      \
                  "inline assembly (asm) is not simulated: its PTX instructions run only on a GPU, and the CPU " \
                  "simulator compiles the file for the CPU, a limit of the kit, not a mistake in your code; "    \
                  "write it with CUDA's C++ functions (__ldg, __pipeline_memcpy_async, ...; for mma.sync, "       \
                  "mma_tf32.h's mma_m16n8k8_tf32), or run and grade it on a GPU (BACKEND=gpu)")
// name(...) of any arguments, refused when a program calls it, with why.
#define SIM_NOT_SIMULATED(result, name, why)                                                                \
    template <class... A>                                                                                    \
    inline result name(A...)                                                                                 \
    {                                                                                                        \
        static_assert(sim::not_simulated<A...>, why);                                                        \
        return result();                                                                                     \
    }
// __activemask() names the lanes a GPU happens to run together at that
// moment; the simulator runs a warp's lanes one after another and has no
// such moment.
SIM_NOT_SIMULATED(unsigned, sim_warp_activemask,
                  "__activemask() is not simulated: it names the lanes a GPU runs together at that moment, which "
                  "the CPU simulator (lanes one after another) does not have, a limit of the kit, not a mistake "
                  "in your code; pass a mask you compute (e.g. __ballot_sync(0xffffffff, condition)), or run "
                  "and grade it on a GPU (BACKEND=gpu)")

// The occupancy API, where nvcc checked the file (occupancy_api.h).
#include "occupancy_api.h"
#undef SIM_NOT_SIMULATED

// Atomics.  Blocks run on several OS threads, so they must be real ones;
// and a GPU's atomic is neither a load nor a store instruction, so check
// mode is told of each (it counts one store, and checks it like one).
// Each comes in CUDA's three scopes: atomicAdd (the device), atomicAdd_system
// (the device and the host: the same here) and atomicAdd_block (the
// threads of one block only), which check mode judges between blocks as a
// load and a store.
namespace sim {
// The old value an atomic returns.  A GPU brings it back to the thread only
// where the kernel uses it (an ATOM instruction, where a dropped result
// makes a RED that returns nothing), and then the atomic has loaded the
// word as surely as a load instruction: check mode counts it as one the
// first time the value is read, so that `atomicAdd(&A[i], 0.0f)` is not a
// load the counters miss, while split-k's `atomicAdd(&C[i], part)` stays a
// store alone.  printf (sim_printf below) prints the value it holds.
template <class T>
class atomic_old {
  public:
    __attribute__((always_inline)) atomic_old(T value, const T *where) : value_(value), where_(where) {}
    __attribute__((always_inline)) atomic_old(const atomic_old &other)
        : value_(other.value_), where_(other.where_), read_(other.read_) {}
    __attribute__((always_inline)) operator T() const
    {
#ifdef LAB_CHECK_MODE
        if (!read_) {
            read_ = true;
            check_atomic_result(where_, sizeof(T));
        }
#endif
        return value_;
    }

  private:
    T value_;
    const T *where_;
    mutable bool read_ = false;
};

// *p becomes change(old) in one indivisible step; old is returned.
template <bool block_scoped, class T, class F>
__attribute__((always_inline)) inline T atomic_update(T *p, F change)
{
    // Only check builds call the checker (asking a flag whether to would
    // itself be recorded as the kernel's load), and nothing here loads *p
    // for the same reason: a guess, which a failed exchange replaces with
    // the value *p holds.
#ifdef LAB_CHECK_MODE
    check_atomic_access(p, sizeof *p, block_scoped);
#endif
    T old{}, next;
    do {
        next = change(old);
    } while (!__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
}  // namespace sim

// CUDA's overloads, one line each: name, the types it takes, the new value.
#define SIM_ATOMIC_SCOPED(name, block_scoped, T, next)                                                \
    __attribute__((always_inline)) inline sim::atomic_old<T> name(T *p, T v)                          \
    {                                                                                                 \
        return {sim::atomic_update<block_scoped>(p, [v](T old) -> T { (void)old; return next; }), p}; \
    }
#define SIM_ATOMIC(name, T, next)                                                                     \
    SIM_ATOMIC_SCOPED(name, false, T, next)                                                           \
    SIM_ATOMIC_SCOPED(name##_system, false, T, next) SIM_ATOMIC_SCOPED(name##_block, true, T, next)
#define SIM_ATOMIC_INTEGERS(name, next) \
    SIM_ATOMIC(name, int, next) SIM_ATOMIC(name, unsigned, next) SIM_ATOMIC(name, unsigned long long, next)
// int sums wrap, as a GPU's do (done in unsigned: signed overflow is undefined in C++).
SIM_ATOMIC(atomicAdd, int, (int)((unsigned)old + (unsigned)v))
SIM_ATOMIC(atomicAdd, unsigned, old + v)
SIM_ATOMIC(atomicAdd, unsigned long long, old + v)
SIM_ATOMIC(atomicAdd, float, old + v)
SIM_ATOMIC(atomicAdd, double, old + v)
SIM_ATOMIC(atomicSub, int, (int)((unsigned)old - (unsigned)v))
SIM_ATOMIC(atomicSub, unsigned, old - v)
SIM_ATOMIC_INTEGERS(atomicExch, v)
SIM_ATOMIC(atomicExch, float, v)
SIM_ATOMIC_INTEGERS(atomicMin, v < old ? v : old)
SIM_ATOMIC_INTEGERS(atomicMax, v > old ? v : old)
SIM_ATOMIC(atomicMin, long long, v < old ? v : old)
SIM_ATOMIC(atomicMax, long long, v > old ? v : old)
SIM_ATOMIC_INTEGERS(atomicAnd, old & v)
SIM_ATOMIC_INTEGERS(atomicOr, old | v)
SIM_ATOMIC_INTEGERS(atomicXor, old ^ v)
SIM_ATOMIC(atomicInc, unsigned, old >= v ? 0u : old + 1)
SIM_ATOMIC(atomicDec, unsigned, old == 0 || old > v ? v : old - 1)
#undef SIM_ATOMIC_INTEGERS
#undef SIM_ATOMIC
#undef SIM_ATOMIC_SCOPED
template <bool block_scoped, class T>
__attribute__((always_inline)) inline sim::atomic_old<T> sim_atomic_cas(T *p, T compare, T v)
{
    return {sim::atomic_update<block_scoped>(p, [compare, v](T old) { return old == compare ? v : old; }), p};
}
#define SIM_ATOMIC_CAS_SCOPED(name, block_scoped, T)                                                \
    __attribute__((always_inline)) inline sim::atomic_old<T> name(T *p, T compare, T v)              \
    {                                                                                                 \
        return sim_atomic_cas<block_scoped>(p, compare, v);                                           \
    }
#define SIM_ATOMIC_CAS(T)                                                                             \
    SIM_ATOMIC_CAS_SCOPED(atomicCAS, false, T)                                                        \
    SIM_ATOMIC_CAS_SCOPED(atomicCAS_system, false, T) SIM_ATOMIC_CAS_SCOPED(atomicCAS_block, true, T)
SIM_ATOMIC_CAS(int)
SIM_ATOMIC_CAS(unsigned)
SIM_ATOMIC_CAS(unsigned long long)
#undef SIM_ATOMIC_CAS
#undef SIM_ATOMIC_CAS_SCOPED

// printf as a lab file spells it (cuda_spellings.h): the C library's, but
// an atomic's old value is handed over as the value it holds (C's `...`
// would take the object that carries it, and print garbage).
namespace sim {
template <class T>
inline const T &printf_argument(const T &v) { return v; }
template <class T>
inline T printf_argument(const atomic_old<T> &v) { return v; }
}  // namespace sim
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <class... A>
inline int sim_printf(const char *format, const A &...args)
{
    return std::printf(format, sim::printf_argument(args)...);
}
#pragma GCC diagnostic pop
namespace std {
using ::sim_printf;
}  // namespace std

#endif
