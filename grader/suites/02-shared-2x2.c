/* Stage 02-shared-2x2: one block of n x n threads, operands staged in shared
 * memory.  The stage is about n = 2: four threads, each loading one element
 * of A and one of B that the other three then read, so a missing or
 * misplaced __syncthreads(), or a wrong index into the shared arrays, gives
 * wrong values.  n = 1 catches a dot product that loops to a fixed bound
 * instead of n, and a launch that is not one thread per element. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* Shared memory's promise for one block: each element of A and B comes from
 * global memory once (2 n^2 loads in all, where the naive kernel makes 2 n^3). */
static int loaded_once(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long want = 2ull * (unsigned long long)n * n;
    if (c->global_loads != want) {
        snprintf(msg, len, "%llu global loads for %d x %d matrices; loading each element of A and B once makes "
                 "2 * n^2 = %llu (the dot product must read the shared copies)", c->global_loads, n, n, want);
        return 0;
    }
    snprintf(msg, len, "each element of A and B loaded from global memory once (%llu loads; the naive kernel: %llu)",
             want, want * (unsigned long long)n);
    return 1;
}

/* The dot products read shared memory: n^2 threads, 2n shared reads each. */
static int shared_used(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long reads = 2ull * (unsigned long long)n * n * n;
    if (c->shared_stores < 2ull * (unsigned long long)n * n || c->shared_loads < reads) {
        snprintf(msg, len, "%llu shared stores and %llu shared loads: the tiles of A and B belong in __shared__ "
                 "arrays and the dot product reads them there (expected at least %llu and %llu)",
                 c->shared_stores, c->shared_loads, 2ull * (unsigned long long)n * n, reads);
        return 0;
    }
    snprintf(msg, len, "A and B staged in shared memory (%llu stores, %llu loads)", c->shared_stores, c->shared_loads);
    return 1;
}

Suite *suite_02_shared_2x2(void)
{
    Suite *s = suite_create("02-shared-2x2");
    static const int sizes[] = {2, 1};
    grading_add_size_tests(s, sizes, 2, 3);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "loaded once", "check", 2, loaded_once);
    grading_add_structure_test(s, "shared memory used", "check", 2, shared_used);
    grading_add_structure_test(s, "barrier", "check", 2, rule_no_hazards);
    grading_add_quiz_tests(s);
    return s;
}
