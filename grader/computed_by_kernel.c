/* The structural rule of stage 01, whose idea is the GPU itself: C is
 * computed by the student's kernel.  A matmul that copies A and B to the
 * host and multiplies there, or fills C from a result made on the host, gets
 * a right answer without a right kernel.  The rule asks for what any kernel
 * that computes C must do, whatever its shape (one thread per element, a
 * grid-stride loop, tiles): no copy to the host while matmul runs from which
 * the host could compute an element of C (so the host never sees a row of A
 * and a column of B), no copy from the host into device memory that could
 * carry part of a product (into C, or into a buffer or symbol a kernel then
 * copies into C: the host may have learnt A and B by a way no copy shows,
 * such as a kernel's printf), no host memory touched by a kernel, every
 * element of C stored by a kernel and every element of A and B loaded by
 * one.  A copy from device memory into C, out of a padded or scratch buffer
 * a kernel computed, moves the device's own product and is fine.
 *
 * Its first half, nothing copied to the host or from it and no kernel given
 * host memory, is asked of every test of every stage before a result counts
 * (ledger_says_device_computed): a product made on the host is no stage's
 * kernel, whichever way it reached C.
 *
 * "Nothing copied" allows a few numbers of the student's own each way.  To
 * the host (a counter, a flag, a time a kernel measured): fewer bytes per
 * call than a row of A and a column of B, 8n, the least from which the host
 * could compute one element of C itself.  At n = 1 that is at most 7 bytes:
 * an int or a float, not an 8-byte counter, which would hold as much as A
 * and B do.  From the host (a size copied to a __constant__, a flag, a
 * seed): the same 8n, but never less than 64 bytes a call, since a right
 * kernel's small settings do not shrink with n.  At
 * n <= 4 those 64 bytes could carry all of C, so a product made on the host
 * keeps the points of the sizes below 5 and of nothing else.  A copy of
 * nothing but zeros carries nothing and is not counted at all (both
 * ledgers skip it): a buffer cleared from a host array of zeros is fine. */
#include <stdio.h>

#include "grading.h"

/* Bytes matmul may copy to the host in one call at size n (above). */
static unsigned long long own_numbers_allowance(int n)
{
    unsigned long long row_and_column = 2ull * (n > 0 ? (unsigned)n : 1u) * sizeof(float);
    return row_and_column - 1;
}

/* Bytes matmul may copy from the host in one call at size n (above). */
static unsigned long long own_settings_allowance(int n)
{
    unsigned long long to_host = own_numbers_allowance(n);
    return to_host > 64 ? to_host : 64;
}

int ledger_says_device_computed(const matmul_ledger *moved, unsigned long long calls, int n, char *msg, size_t len)
{
    unsigned long long to_host = moved->copied_to_host, from_host = moved->copied_from_host,
                       host_launches = moved->host_pointer_launches, allowed = (calls ? calls : 1) * own_numbers_allowance(n),
                       allowed_in = (calls ? calls : 1) * own_settings_allowance(n);
    if (to_host <= allowed && from_host <= allowed_in && !host_launches)
        return 1;
    if (host_launches)
        snprintf(msg, len,
                 "matmul made %llu kernel launch%s with host memory in reach (a pointer to memory cudaMalloc did "
                 "not return: cudaMallocHost's, cudaHostRegister's, cudaMallocManaged's, malloc's; or __managed__ "
                 "variables): a kernel that reaches the host can carry A and B out and a product made there back "
                 "in. C must be computed by your kernel from A and B in device memory, so no test counts this "
                 "result", host_launches, host_launches == 1 ? "" : "es");
    else if (to_host > allowed)
        snprintf(msg, len,
                 "matmul itself copied %llu bytes from the device to the host and %llu bytes from the host to the device "
                 "(cudaMemcpy, cudaMemcpyFromSymbol, cudaMemcpyToSymbol): C must be computed by your kernel on the device "
                 "(A, B and C stay there; the kit copies C back after matmul returns), not on the host or elsewhere, so "
                 "no test counts this result (a few numbers of your own may come back, at most %llu bytes a call at "
                 "n=%d: with a row of A and a column of B the host could compute part of C)",
                 to_host, from_host, own_numbers_allowance(n), n);
    else
        snprintf(msg, len,
                 "matmul itself copied %llu bytes from the host to the device (into C, a buffer or a symbol: cudaMemcpy, "
                 "cudaMemcpyToSymbol): bytes enough to carry part of a product made on the host, however it learnt A "
                 "and B. C must be computed by your kernel on the device from A and B, so no test counts this result "
                 "(a few numbers of your own may go in, at most %llu bytes a call at n=%d; a copy of zeros is not "
                 "counted, and cudaMemset clears a buffer without any copy)",
                 from_host, own_settings_allowance(n), n);
    return 0;
}

int rule_computed_by_kernel(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long elements = (unsigned long long)n * n;
    if (c->copy_reports == 0) {
        snprintf(msg, len, "the run left no account of what cudaMemcpy moved during matmul, so where C came from "
                 "is unknown");
        return 0;
    }
    if (!ledger_says_device_computed(&c->moved, c->copy_reports, n, msg, len))
        return 0;
    /* Accesses to host memory never reach here: grading_run_check refuses
     * the counts of a run that made any. */
    /* In bytes, not instructions: a float4 store writes four elements. */
    if (c->global_store_bytes < elements * sizeof(float)) {
        snprintf(msg, len, "the kernels stored %llu floats' worth (%llu bytes) for the %llu elements of C: every "
                 "element of C must be written by a kernel", c->global_store_bytes / sizeof(float),
                 c->global_store_bytes, elements);
        return 0;
    }
    if (c->global_load_bytes < 2 * elements * sizeof(float)) {
        snprintf(msg, len, "the kernels loaded %llu floats' worth (%llu bytes) from global memory; computing C reads "
                 "every element of A and B at least once (2 n^2 = %llu floats)", c->global_load_bytes / sizeof(float),
                 c->global_load_bytes, 2 * elements);
        return 0;
    }
    snprintf(msg, len, "C computed by the kernel: %llu global loads, %llu stores, nothing copied from the host%s "
             "during matmul", c->global_loads, c->global_stores,
             c->moved.copied_to_host || c->moved.copied_from_host ? " or to it but numbers of its own" : " or to it");
    return 1;
}
