// Fibers: each CUDA thread of a block runs on its own small stack, and the
// block's scheduler switches between them at barriers.  On x86-64 and
// aarch64 the switch is a few instructions of assembly
// (fiber_switch_x86_64.S, fiber_switch_aarch64.S).  Elsewhere a fiber is
// started with ucontext and switched with _setjmp/_longjmp: swapcontext
// makes a system call on every switch (it saves the signal mask), which
// made barrier-heavy kernels some 40 times slower; _longjmp makes none.
#ifndef SIM_FIBER_H
#define SIM_FIBER_H

#include <cstddef>

namespace sim {

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(SIM_FIBER_UCONTEXT)
#define SIM_FIBER_ASSEMBLY 1
struct fiber_context { void *sp; };
#else
}  // namespace sim
#include <setjmp.h>
#include <ucontext.h>
namespace sim {
// `start` is how a fresh fiber is first entered (setcontext); after that,
// and for the scheduler's own context, `resume` (_longjmp).
struct fiber_context {
    ucontext_t start;
    jmp_buf resume;
    bool fresh = false;
};
#endif

// Prepares `ctx` to run entry(arg) on the stack [stack, stack + size) the
// first time it is switched to.  entry must never return.
void fiber_init(fiber_context *ctx, char *stack, size_t size, void (*entry)(void *), void *arg);

// Saves the running context in `from` and continues `to`.
void fiber_switch(fiber_context *from, fiber_context *to);

}  // namespace sim

#endif
