// Fiber set-up and switch; see fiber.h.
//
// The portable switch jumps between stacks with _longjmp, which
// _FORTIFY_SOURCE (on by default in Ubuntu's compilers) turns into a
// checked longjmp that aborts on a jump to another stack.
#undef _FORTIFY_SOURCE
#include "fiber.h"

#include <cstdint>
#include <cstdlib>

#ifdef SIM_FIBER_ASSEMBLY
extern "C" void sim_fiber_switch(void **save_sp, void *new_sp);
extern "C" void sim_fiber_trampoline();

namespace sim {

#if defined(__aarch64__)
void fiber_init(fiber_context *ctx, char *stack, size_t size, void (*entry)(void *), void *arg)
{
    // The frame sim_fiber_switch pops: x19..x30 (x19 the entry, x20 its
    // argument, x30 where the switch returns to), then d8..d15, 160 bytes
    // below the 16-aligned top, which is where sp lands after the pop.
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
    void **frame = reinterpret_cast<void **>(top - 160);
    for (int i = 0; i < 20; i++)
        frame[i] = nullptr;
    frame[0] = reinterpret_cast<void *>(entry);                 // x19
    frame[1] = arg;                                             // x20
    frame[11] = reinterpret_cast<void *>(&sim_fiber_trampoline);  // x30
    ctx->sp = frame;
}
#else
void fiber_init(fiber_context *ctx, char *stack, size_t size, void (*entry)(void *), void *arg)
{
    // The frame sim_fiber_switch pops: r15 r14 r13 r12 rbx rbp, then the
    // return address.  Top aligned to 16 minus 72 leaves rsp 16-aligned
    // when the trampoline starts, as its call needs.
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
    void **frame = reinterpret_cast<void **>(top - 72);
    frame[0] = nullptr;                                     // r15
    frame[1] = nullptr;                                     // r14
    frame[2] = reinterpret_cast<void *>(entry);             // r13
    frame[3] = arg;                                         // r12
    frame[4] = nullptr;                                     // rbx
    frame[5] = nullptr;                                     // rbp
    frame[6] = reinterpret_cast<void *>(&sim_fiber_trampoline);
    ctx->sp = frame;
}
#endif

void fiber_switch(fiber_context *from, fiber_context *to) { sim_fiber_switch(&from->sp, to->sp); }

}  // namespace sim

#else

namespace sim {

void fiber_init(fiber_context *ctx, char *stack, size_t size, void (*entry)(void *), void *arg)
{
    getcontext(&ctx->start);
    ctx->start.uc_stack.ss_sp = stack;
    ctx->start.uc_stack.ss_size = size;
    ctx->start.uc_link = nullptr;
    // glibc's makecontext passes a full 64-bit argument on 64-bit targets.
    makecontext(&ctx->start, reinterpret_cast<void (*)()>(entry), 1, arg);
    ctx->fresh = true;
}

// Two system calls per fiber (getcontext and setcontext keep the signal
// mask) instead of one per switch.  The mask never needs restoring here:
// no fiber changes it, and the fault handler leaves by a switch with
// SA_NODEFER (fault_handler.cpp).
void fiber_switch(fiber_context *from, fiber_context *to)
{
    if (_setjmp(from->resume) != 0)
        return;  // resumed by a later switch to `from`
    if (to->fresh) {
        to->fresh = false;
        setcontext(&to->start);
    }
    _longjmp(to->resume, 1);
}

}  // namespace sim

#endif
