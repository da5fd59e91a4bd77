// malloc and free in a kernel, as on a GPU: blocks of the device's heap, a
// region of device memory of its own (8 MiB unless cudaDeviceSetLimit's
// cudaLimitMallocHeapSize says otherwise), which kernels reach and the host
// does not.  In the simulator a kernel is ordinary C++, so its malloc would
// be the host's, and check mode would count every access to the block as
// one to host memory; so the build renames malloc and free in a lab file
// (cuda_spellings.h) to sim_kernel_malloc and sim_kernel_free (cuda_sim.h),
// which ask here inside a kernel and are the host's own outside one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim_runtime_api.h"

namespace sim {

// cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes): refused once a kernel
// has taken a block from the heap.
cudaError_t resize_device_heap(size_t bytes);

// Whether p lies in the heap: then [lo, hi) is the block that holds it, or
// the heap itself when no block does (an access that runs past its block's
// end is not caught).
bool in_device_heap(const void *p, uintptr_t *lo, uintptr_t *hi);

// Kernels may reach the heap while they run, and the host may not:
// launch.cpp opens and closes it with the rest of device memory.
void device_heap_open();
void device_heap_close();
// cudaDeviceReset: every block freed.
void device_heap_reset();

}  // namespace sim
