// Check mode: what the block scheduler tells the checker.  In a check build
// (clang's -fsanitize-coverage=func,trace-loads,trace-stores on the lab
// file) every load and store of kernel code calls a hook in check_mode.cpp;
// the hooks classify the address and record it, and these calls mark the
// points where the records are analysed.  In a fast build none is called.
#ifndef SIM_CHECK_MODE_H
#define SIM_CHECK_MODE_H

#include <cstddef>

#include "engine.h"

namespace sim {

extern bool check_enabled;

struct check_block_layout {
    const char *fibers;      // fiber array: the running thread is found from current_thread
    size_t fiber_stride;
    const void *ignore_lo[2], *ignore_hi[2];  // the scheduler's own memory and the fiber stacks
    // The dynamic shared buffer: `capacity` bytes, of which the launch's
    // third argument asked for `asked`; a GPU faults on the rest.
    const char *dynamic_shared;
    size_t dynamic_asked, dynamic_capacity;
};

void check_launch_begin(dim3 grid, dim3 block, kernel_site site);
void check_block_begin(const check_block_layout &layout, uint3 block_idx, dim3 block_dim);
void check_barrier(unsigned thread, const void *call_site);
// The lanes (a mask) of the warp whose first thread is `first_thread` met at
// a warp-level call: what each did before it is ordered before what any
// did after it, as a barrier orders a block.
void check_warp_meeting(unsigned first_thread, unsigned lanes);
// Every live thread waits at a barrier (or the block is done): the phase
// between two barriers is complete and can be analysed.
void check_phase_end();
void check_block_end();
void check_launch_end();
// One access made on a kernel's behalf by the simulator itself (a cp.async
// copy landing), recorded as if the kernel's code at `site` had made it.
void check_access(const void *p, unsigned size, bool store, void *site);

}  // namespace sim

#endif
