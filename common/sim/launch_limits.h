// What a GPU checks before it runs a launch, beyond the grid's and block's
// shape (launch.cpp): that the kernel's threads fit the registers and the
// __launch_bounds__ nvcc gave it, and that its shared memory fits what a
// block may have.  The kernel's numbers come from nvcc's build of the lab
// file (kernel_resources.h); a kernel it has none for is never refused for
// them.
#pragma once

#include <cstddef>
#include <string>

#include "kernel_resources.h"

namespace sim {

// nvcc's numbers for the kernel at that address, or null (a build nvcc did
// not check, or a kernel the table could not name: kernel_resources.h).
const kernel_resources *resources_of(const void *kernel);
// The kernel's name as its source spells it ("tiled<32>(float const*, ...)").
std::string readable_name(const kernel_resources &k);

// The most dynamic shared memory a block of kernel may ask for now: 48 KiB
// less its static __shared__ arrays, or what cudaFuncSetAttribute allowed
// it (then *opted_in is true).
size_t dynamic_shared_limit(const void *kernel, bool *opted_in);
// The kernel's preferred shared-memory carveout, in percent of what an SM
// has (cudaFuncAttributePreferredSharedMemoryCarveout), or -1: none set.
int shared_memory_carveout(const void *kernel);

// What a block may have of dynamic shared memory once its kernel opted in
// (cudaFuncSetAttribute): 227 KiB on the report's GPU (compute capability
// 9.0), less the kernel's static __shared__ arrays.  The simulator's
// buffers are this size.
constexpr size_t max_block_shared = 227 * 1024;

// What this run's device offers a block that opted in: max_block_shared,
// or less where LAB_SHARED_PER_BLOCK_OPTIN (bytes) says so, to stand for a
// smaller GPU (48 KiB at the least, as every GPU since compute capability
// 3.0 offers; a value outside 48 KiB..max_block_shared is taken as the
// nearer end, and one that is no number as unset).  cudaGetDeviceProperties's sharedMemPerBlockOptin and
// cudaDevAttrMaxSharedMemoryPerBlockOptin report it, and
// cudaFuncSetAttribute refuses more.  The grader's small-device test sets
// it (grader/grading.c); a GPU build of lab_exec reads the same setting
// (grader/gpu_device_offer.cpp).
size_t block_shared_optin();

// Why a GPU would refuse to launch `kernel` with blocks of `threads`
// (cudaErrorLaunchOutOfResources), or "" if it would not.
std::string refused_for_resources(const void *kernel, unsigned long threads);

// Why a GPU would refuse a launch of `kernel` asking for `dynamic_shared`
// bytes of dynamic shared memory (cudaErrorInvalidValue), or "".
std::string refused_for_shared_memory(const void *kernel, size_t dynamic_shared);

}  // namespace sim
