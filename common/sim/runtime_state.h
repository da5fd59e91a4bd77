// State the simulator's runtime files share; not part of the lab-facing API.
#ifndef SIM_RUNTIME_STATE_H
#define SIM_RUNTIME_STATE_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim_runtime_api.h"

namespace sim {

// Errors: CUDA keeps a "last error" that cudaGetLastError clears, and a
// sticky one (a kernel fault) that every later call returns.
cudaError_t record_error(cudaError_t e);
void record_sticky_error(cudaError_t e);
cudaError_t sticky_error();

// Prints a diagnostic the way the simulator always does: one prefix, to
// stderr, so students can tell the simulator's words from their own output.
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// A source path without its folders, as diagnostics name a lab file.
const char *short_file(const char *path);

// Device memory: outside kernels it is inaccessible, as on a GPU, so host
// code that dereferences a cudaMalloc pointer faults there too.
void device_memory_open();
void device_memory_close();
// After a kernel: did anything write into the slack around an allocation?
// Returns an explanation, or an empty string.
std::string check_allocation_bounds();
// New device memory is filled with NaN (a quiet NaN in every whole float,
// 0xFF in any leftover bytes), so that a read of what was never written
// shows; cudaMalloc's and the heap's blocks alike.
void fill_with_nan(char *p, size_t bytes);
size_t page_size();
// What an address is, in words, for a fault report.
std::string describe_address(const void *addr);
bool is_device_range(const void *p, size_t bytes);
// cudaDeviceReset: frees every allocation, as a GPU's reset does with its
// context; returns how many there were.
size_t free_all_device_memory();

// For check mode: is [p, p+bytes) inside one allocation (then [lo, hi) is
// its data), near one but outside it (then past says how far past its end,
// negative: before its start), or neither?
enum class device_address { inside, out_of_bounds, not_device };
device_address classify_device_address(const void *p, size_t bytes, uintptr_t *lo, uintptr_t *hi, long *past);
bool is_device_pointer(const void *p);

// The simulator's own thread_local variables, which live beside the
// __shared__ arrays in the program's TLS block and must survive when a new
// block's shared memory is filled with NaN.
const void *check_tls_variable();
const void *fault_tls_variable();

// The calling OS thread's static TLS block of the main program: [lo, lo+len).
void program_tls_block(uintptr_t *lo, uintptr_t *len);

// Drops the cp.async copies a finished CUDA thread never waited for, so the
// next block that runs on its fiber starts with none.
struct thread_state;
void async_copy_forget(thread_state &t);

// Installs the SIGSEGV/SIGBUS handler on the calling thread's own stack.
void install_fault_handler();

// Called from the fault handler when the faulting thread runs a kernel:
// abandons the CUDA thread and returns to its block's scheduler.
// Returns false (and does nothing) when no kernel runs on this OS thread.
bool abandon_faulting_thread(const std::string &why);
// The same for any reason: ends the running CUDA thread's block and the
// launch with `error` (check mode's bound on a spinning kernel uses it).
bool abandon_running_thread(cudaError_t error, const std::string &why);
// Whether the calling OS thread runs a CUDA thread of a kernel now.
bool in_kernel();
// A fault in the running CUDA thread's stack (launch.cpp): its local
// variables reached below what was writable, and it was made so (grown: the
// access may run again); or they need more than a fiber's stack may have
// (overflow), or more memory than the run may use (no_memory).
enum class stack_growth { not_a_stack, grown, overflow, no_memory };
stack_growth grow_fiber_stack(const void *addr);
// The most a CUDA thread's stack may grow to, in bytes.
size_t fiber_stack_limit();

}  // namespace sim

#endif
