// The engine's side of the CUDA surface: the calls that cuda_sim.h's inline
// code (what a lab file compiles against) makes into the simulator's
// runtime, and the state the two share.  cuda_sim.h includes this; the
// engine's files (launch.cpp, check_mode.cpp, device_*.cpp, ...) include
// this and never cuda_sim.h, so the lab-facing header and the engine meet
// here and nowhere else.
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include <cstddef>
#include <cstdint>

#include "sim_runtime_api.h"
#include "sim_vector_types.h"
#include "warp_ops.h"

// malloc and free as a lab file spells them (cuda_spellings.h): inside a
// kernel a block of the device's heap, outside one the host's malloc
// (device_heap.cpp).
extern "C" void *sim_kernel_malloc(size_t bytes) noexcept;
extern "C" void sim_kernel_free(void *p) noexcept;
// memcpy and memset likewise: in a kernel, copies check mode sees
// (device_memcpy.cpp); outside one, the C library's.
extern "C" void *sim_memcpy(void *dst, const void *src, size_t bytes) noexcept;
extern "C" void *sim_memset(void *dst, int value, size_t bytes) noexcept;
// A check build turns checking on before main runs (check_mode.cpp).
extern "C" void sim_check_enable(void);

namespace sim {

// Where the running CUDA thread is.  The scheduler points these at the
// fiber it switches to, so reads after a barrier see the new thread.
struct async_copy_queue;  // a thread's cp.async copies not yet waited for (async_copy.cpp)
struct thread_state {
    uint3 thread_idx;
    async_copy_queue *async_copies = nullptr;
};
struct block_state { uint3 block_idx; dim3 block_dim, grid_dim; };
extern thread_local thread_state *current_thread;
extern thread_local block_state *current_block;

void barrier();
// A barrier that also counts the block's threads whose predicate is true
// (__syncthreads_count, _and, _or).
unsigned barrier_count(int predicate);

struct kernel_site { const char *file; int line; };

// The running block's dynamic shared memory: what `extern __shared__ T
// name[];` names (rewrite_launch.c rewrites the declaration to ask here).
void *dynamic_shared_memory();

// Runs entry(closure) once per CUDA thread of every block of kernel; the
// launch's error (its configuration refused, the kernel failed), also
// recorded for cudaGetLastError.
cudaError_t launch(dim3 grid, dim3 block, size_t dynamic_shared, void (*entry)(void *), void *closure,
                   kernel_site site, const void *kernel);

// Counts a launch that was given a pointer to host memory (device_memory.cpp).
void note_launch_pointers(const void *const *pointers, size_t count, const char *file, int line);

// A `__device__` variable, which lives in host memory here: the rewrite of a
// lab file registers each (rewrite_launch.c) so that check mode counts a
// kernel's accesses to it as global memory, as on a GPU, not as host memory.
bool register_device_variable(const void *address, size_t bytes);
// A `__managed__` variable: host memory any kernel can reach, so every
// launch counts as given host memory (note_launch_pointers).
bool register_managed_variable(const void *address, size_t bytes);

// A warp-level call: the lanes its mask names meet (launch.cpp runs the
// block's other threads until the last of them arrives), and each gets
// what CUDA's rules give it (warp_rules.h).
uint64_t warp_collective(const warp_call &call);

// A WMMA load or store's pointer and leading dimension, as CUDA requires
// them (32-byte aligned, a multiple of 4 floats); otherwise the running
// thread fails the launch, naming the call (warp_mma.cpp).
void check_fragment_pointer(const void *p, unsigned ldm, const char *call);

// cp.async (async_copy.cpp): a copy issued, the copies issued since the
// last commit made a group, and a wait until at most pending_groups groups
// have not landed.
void async_copy_issue(void *dst, const void *src, size_t bytes, size_t zero_bytes);
void async_copy_commit();
void async_copy_wait(size_t pending_groups);

// clock64(): nanoseconds of a steady clock.
long long steady_nanoseconds();

// Check builds only (check_mode.cpp): a fence, which tells the race check
// between blocks that they hand data over on purpose; an atomic's access,
// and the first read of the old value it returned.
void check_fence();
void check_atomic_access(const void *p, unsigned size, bool block_scoped);
void check_atomic_result(const void *p, unsigned size);
// A lane's multiply-adds in a wmma::mma_sync (warp_mma.cpp).
void check_tensor_core_macs(unsigned macs);

}  // namespace sim

#endif
