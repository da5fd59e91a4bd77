/* Stage 03-shared-3x3: the one-block shared-memory kernel for every n one
 * block can hold.  3 is the lesson's worked example; 1 and 2 catch loop
 * bounds and indices that only work for one size; 5 and 31 are odd sizes
 * between the usual powers of two; 16 is a common block width and 32 the
 * largest one block holds (1024 threads).  n = 33 needs 1089 threads in one block:
 * the launch must be refused with cudaErrorInvalidConfiguration, never turned
 * into a wrong answer or a silent partial result. */
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

Suite *suite_03_shared_3x3(void)
{
    Suite *s = suite_create("03-shared-3x3");
    static const int sizes[] = {3, 1, 2, 5, 16, 31, 32};
    grading_add_size_tests(s, sizes, 7, 3);
    grading_add_refused_test(s, 33);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "loaded once (n=3)", "check", 3, loaded_once);
    grading_add_structure_test(s, "loaded once (n=32)", "check", 32, loaded_once);
    grading_add_structure_test(s, "shared memory used", "check", 3, shared_used);
    grading_add_structure_test(s, "barrier", "check", 32, rule_no_hazards);
    grading_add_quiz_tests(s);
    return s;
}
