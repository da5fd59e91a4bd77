/* Stage 04-tiled: the tiled kernel is right for every size and for both tile
 * widths the grader builds it with (grader/variants.tsv: -DTILE=16 and
 * -DTILE=32), so a kernel that hard-codes one width fails the other.  1 is a
 * single partial tile; 31 and 33 sit just below and above one 32-wide tile
 * (33 is also 16 + 16 + 1); 48 is a whole number of 16-wide tiles but not of
 * 32-wide ones, so only one build has a partial last tile; 100 and 1000 are
 * multiples of neither, and 1000 runs 32 (or 63) phases. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* Each phase, each thread loads one element of A and one of B: at most
 * 2 * ceil(n / TILE) global loads per thread, where the naive kernel makes 2n. */
static int loads_per_thread(const check_counts *c, int n, int tile, char *msg, size_t len)
{
    unsigned long long want = 2ull * (unsigned long long)((n + tile - 1) / tile);
    if (c->max_loads_per_thread != want) {
        snprintf(msg, len, "a thread made up to %llu global loads; with TILE=%d each thread loads one element of A "
                 "and one of B per phase: 2 * ceil(%d / %d) = %llu", c->max_loads_per_thread, tile, n, tile, want);
        return 0;
    }
    snprintf(msg, len, "%llu global loads per thread, 2 * ceil(n / TILE) with TILE=%d (the naive kernel: %d)", want,
             tile, 2 * n);
    return 1;
}

static int loads_tile16(const check_counts *c, int n, char *msg, size_t len) { return loads_per_thread(c, n, 16, msg, len); }
static int loads_tile32(const check_counts *c, int n, char *msg, size_t len) { return loads_per_thread(c, n, 32, msg, len); }

Suite *suite_04_tiled(void)
{
    Suite *s = suite_create("04-tiled");
    static const int small[] = {1, 31, 33, 48, 100};
    static const int large[] = {1000};
    grading_add_size_tests_built(s, "TILE=16", small, 5, 3);
    grading_add_size_tests_built(s, "TILE=16", large, 1, 2);
    grading_add_size_tests_built(s, "TILE=32", small, 5, 3);
    grading_add_size_tests_built(s, "TILE=32", large, 1, 2);
    /* The idea, on the simulator's counts (built with each tile width). */
    grading_add_structure_test(s, "loads per thread (TILE=16)", "check-TILE=16", 100, loads_tile16);
    grading_add_structure_test(s, "loads per thread (TILE=32)", "check-TILE=32", 100, loads_tile32);
    grading_add_structure_test(s, "one store per element", "check-TILE=32", 100, rule_one_store_per_element);
    grading_add_structure_test(s, "barriers (TILE=16)", "check-TILE=16", 100, rule_no_hazards);
    grading_add_structure_test(s, "barriers (TILE=32)", "check-TILE=32", 100, rule_no_hazards);
    grading_add_structure_test(s, "in bounds", "check-TILE=32", 100, rule_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
