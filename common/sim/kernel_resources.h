// What nvcc's build of a lab file says of each kernel on a GPU: its
// registers per thread, the most threads a block of it may have (its
// __launch_bounds__), its static shared memory and its local memory (also
// what the occupancy API answers from: nvcc_checked/occupancy_api.cpp).  A CPU has no such
// limits, so without this the simulator would run a block that a GPU
// refuses to launch: "too many resources requested for launch" (its threads
// need more registers than one block may have, or are more than its launch
// bounds allow), or "invalid argument" (its static and dynamic shared
// memory together are over 48 KiB, and no cudaFuncSetAttribute raised the
// kernel's limit).  Where nvcc checks the lab file (NVCC_CHECK,
// common/backend.mk), the build writes a table of these from ptxas's report
// and the PTX (kernel_resources.sh) and links it in; without one the table
// is empty and nothing is refused.
#pragma once

namespace sim {

struct kernel_resources {
    const void *kernel;     // the kernel's address, or null where the link found none (a static kernel)
    int registers;          // per thread, as ptxas allotted them
    const char *name;       // its mangled name, for messages; null ends the table
    const char *gpu;        // the architecture nvcc built for, "sm_90"
    int max_threads;        // per block, from __launch_bounds__ (PTX's .maxntid); 0: no bound
    int static_shared;      // bytes of __shared__ arrays a block of it declares (ptxas's "bytes smem")
    int local_bytes;        // per thread, its stack frame in local memory (ptxas's "bytes stack frame")
};

}  // namespace sim

// Ends with an entry whose name is null.  launch_limits.cpp has an empty one for
// builds that nvcc did not check.
extern "C" const sim::kernel_resources sim_kernel_resources[];
