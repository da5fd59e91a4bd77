/* Structural tests: what the simulator's check mode counted, judged by a
 * rule.  They grade the idea of a stage (data loaded once, barriers where
 * they must be, no bank conflicts) on top of the result, whatever shape the
 * student's code has. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading.h"

#define MAX_STRUCTURE_TESTS 32

static struct {
    const char *name, *variant;
    int n;
    structure_rule rule;
} tests[MAX_STRUCTURE_TESTS];
static int test_count;

START_TEST(test_structure)
{
    check_counts c;
    grading_run_check(tests[_i].variant, tests[_i].n, &c);
    char msg[1024];
    int ok = tests[_i].rule(&c, tests[_i].n, msg, sizeof msg);
    if (!ok)
        ck_abort_msg("n=%d: %s%s%s", tests[_i].n, msg, c.findings[0] ? "\nThe check report says:\n" : "",
                     c.findings);
    grading_record_pass(tests[_i].name, msg);
}
END_TEST

void grading_add_structure_test(Suite *s, const char *name, const char *variant, int n, structure_rule rule)
{
    if (test_count >= MAX_STRUCTURE_TESTS)
        return;
    int slot = test_count++;
    tests[slot].name = name;
    tests[slot].variant = variant;
    tests[slot].n = n;
    tests[slot].rule = rule;
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, grading_timeout(n, 1) * 10 + 30);
    tcase_add_loop_test(tc, test_structure, slot, slot + 1);
    suite_add_tcase(s, tc);
}

int rule_no_hazards(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->hazards || c->uninitialised_shared_reads || c->divergent_barriers) {
        snprintf(msg, len,
                 "%llu shared-memory hazards, %llu reads of shared memory nothing wrote, %llu barriers in divergent "
                 "code: a __syncthreads() is missing or misplaced (make check shows where)",
                 c->hazards, c->uninitialised_shared_reads, c->divergent_barriers);
        return 0;
    }
    snprintf(msg, len, "no shared-memory hazards, no reads before writes, no divergent barriers");
    return 1;
}

int rule_no_bank_conflicts(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->bank_conflicts_ld || c->bank_conflicts_st) {
        snprintf(msg, len, "bank conflicts: %llu extra wavefronts on shared loads, %llu on stores (make check names "
                 "the line and the degree)", c->bank_conflicts_ld, c->bank_conflicts_st);
        return 0;
    }
    snprintf(msg, len, "no bank conflicts in %llu shared loads and %llu stores", c->shared_loads, c->shared_stores);
    return 1;
}

int rule_in_bounds(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->out_of_bounds || c->host_accesses) {
        snprintf(msg, len, "%llu accesses outside the device arrays and %llu to host memory: every load needs the "
                 "edge guard (load 0 outside the matrix)", c->out_of_bounds, c->host_accesses);
        return 0;
    }
    snprintf(msg, len, "every access inside A, B and C");
    return 1;
}

int rule_one_store_per_element(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long want = (unsigned long long)n * n;
    if (c->global_stores != want) {
        snprintf(msg, len, "%llu stores to C for %llu elements: write each element once, after the last phase "
                 "(a store inside the tile loop writes it every phase)", c->global_stores, want);
        return 0;
    }
    snprintf(msg, len, "each element of C stored once (%llu stores)", want);
    return 1;
}

/* Shared memory's promise for one block: each element of A and B comes from
 * global memory once (2 n^2 loads in all, where the naive kernel makes 2 n^3). */
int rule_loaded_once(const check_counts *c, int n, char *msg, size_t len)
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
int rule_shared_used(const check_counts *c, int n, char *msg, size_t len)
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
