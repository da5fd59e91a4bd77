/* sim_fiber_switch(void **save_sp, void *new_sp) for aarch64: the AAPCS64
 * lets a call clobber everything but x19-x28, the frame pointer x29, the
 * link register x30, sp and the low halves d8-d15 of v8-v15, so those are
 * all a switch has to keep.  Ten pairs, 160 bytes, pushed on the running
 * stack; no system call, where ucontext's swapcontext makes one (it saves
 * the signal mask) on every switch.
 *
 * A new fiber's frame (fiber.cpp) holds its entry in x19, the argument in
 * x20 and sim_fiber_trampoline in x30: the first switch to it "returns"
 * into the trampoline with sp at the 16-aligned top of its stack. */
#if defined(__aarch64__)
    .text
    .globl sim_fiber_switch
    .type sim_fiber_switch, %function
    .p2align 2
sim_fiber_switch:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x2, sp
    str x2, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
    .size sim_fiber_switch, .-sim_fiber_switch

    .globl sim_fiber_trampoline
    .type sim_fiber_trampoline, %function
    .p2align 2
sim_fiber_trampoline:
    mov x0, x20
    blr x19
    brk #0
    .size sim_fiber_trampoline, .-sim_fiber_trampoline
#endif
    .section .note.GNU-stack,"",%progbits
