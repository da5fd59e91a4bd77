// Turns a fault into a report a student can act on.
//
// Inside a kernel, a bad access abandons that CUDA thread, stops the launch
// and leaves cudaErrorIllegalAddress behind, as a GPU does: the program
// learns of it at its next synchronising call.  In host code (a device
// pointer dereferenced outside a kernel) the program dies as it would with
// a GPU, after saying what the address was.
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime_state.h"

namespace sim {

namespace {

thread_local bool handler_stack_ready;

void on_fault(int sig, siginfo_t *info, void *)
{
    switch (grow_fiber_stack(info->si_addr)) {
    case stack_growth::grown:
        return;  // the access runs again, on memory now writable
    case stack_growth::overflow:
        abandon_running_thread(cudaErrorIllegalAddress,
                               "its local variables need more than " + std::to_string(fiber_stack_limit() / 1024) +
                                   " KiB of stack: more than the 512 KiB of local memory a GPU gives a thread (a "
                                   "large local array, or recursion that does not end?)");
        break;  // not reached: the thread was abandoned
    case stack_growth::no_memory:
        abandon_running_thread(cudaErrorMemoryAllocation,
                               "its local variables need more memory than this run may use (every thread of a "
                               "block keeps its own copy of a local array: make it smaller, or __shared__)");
        break;
    case stack_growth::not_a_stack:
        break;
    }
    std::string what = describe_address(info->si_addr);
    if (abandon_faulting_thread("invalid access to " + what))
        return;  // not reached: the thread was abandoned
    // The first pages are never mapped: an access there went through a
    // null pointer, most often the one a failed malloc returned.
    if (reinterpret_cast<uintptr_t>(info->si_addr) < 65536)
        what = "a null pointer (address " + std::to_string(reinterpret_cast<uintptr_t>(info->si_addr)) +
               "): did a malloc or a cudaMalloc fail and return NULL?";
    std::string msg = "[simulator] host code touched " + what +
                      (is_device_pointer(info->si_addr)
                           ? ": device memory can only be used inside a kernel or through cudaMemcpy\n"
                           : "\n");
    ssize_t ignored = write(2, msg.data(), msg.size());
    (void)ignored;
    signal(sig, SIG_DFL);  // returning re-runs the access and ends the program
}

}  // namespace

const void *fault_tls_variable() { return &handler_stack_ready; }

void install_fault_handler()
{
    if (handler_stack_ready)
        return;
    handler_stack_ready = true;
    // The handler must not run on a fiber's small stack, which may be the
    // very thing that overflowed.
    stack_t ss;
    ss.ss_size = 256 * 1024;
    ss.ss_sp = malloc(ss.ss_size);
    ss.ss_flags = 0;
    sigaltstack(&ss, nullptr);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    // NODEFER: the handler leaves by switching fibers, never by returning,
    // so the signal must not stay blocked.
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
}

}  // namespace sim
