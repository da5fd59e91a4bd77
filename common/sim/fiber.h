// Fibers: each CUDA thread of a block runs on its own small stack, and the
// block's scheduler switches between them at barriers.  On x86-64 and
// aarch64 the switch is a few instructions of assembly
// (fiber_switch_x86_64.S, fiber_switch_aarch64.S); elsewhere it falls back
// to ucontext, which is correct but makes a system call per switch (tens of
// times slower on kernels with many barriers: the grader's time limits
// stretch while a run keeps finishing blocks, grader/student_run.h).
#ifndef SIM_FIBER_H
#define SIM_FIBER_H

#include <cstddef>

namespace sim {

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(SIM_FIBER_UCONTEXT)
#define SIM_FIBER_ASSEMBLY 1
struct fiber_context { void *sp; };
#else
}  // namespace sim
#include <ucontext.h>
namespace sim {
struct fiber_context { ucontext_t uc; };
#endif

// Prepares `ctx` to run entry(arg) on the stack [stack, stack + size) the
// first time it is switched to.  entry must never return.
void fiber_init(fiber_context *ctx, char *stack, size_t size, void (*entry)(void *), void *arg);

// Saves the running context in `from` and continues `to`.
void fiber_switch(fiber_context *from, fiber_context *to);

}  // namespace sim

#endif
