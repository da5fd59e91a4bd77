// What a GPU checks before it runs a launch, beyond the grid's and block's
// shape (launch.cpp): that the kernel's threads fit the registers and the
// __launch_bounds__ nvcc gave it, and that its shared memory fits what a
// block may have.  The kernel's numbers come from nvcc's build of the lab
// file (kernel_resources.h); a kernel it has none for is never refused for
// them.
#pragma once

#include <cstddef>
#include <string>

namespace sim {

// What a block may have of dynamic shared memory once its kernel opted in
// (cudaFuncSetAttribute): 227 KiB on the report's GPU (compute capability
// 9.0), less the kernel's static __shared__ arrays.
constexpr size_t max_block_shared = 227 * 1024;

// Why a GPU would refuse to launch `kernel` with blocks of `threads`
// (cudaErrorLaunchOutOfResources), or "" if it would not.
std::string refused_for_resources(const void *kernel, unsigned long threads);

// Why a GPU would refuse a launch of `kernel` asking for `dynamic_shared`
// bytes of dynamic shared memory (cudaErrorInvalidValue), or "".
std::string refused_for_shared_memory(const void *kernel, size_t dynamic_shared);

}  // namespace sim
