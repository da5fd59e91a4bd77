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

/* Tiling's promise, per element of C whatever the block's shape: each
 * element of A and of B is loaded once per tile of C that needs it, so at
 * most 2 * ceil(n / TILE) global loads per element of C (the naive kernel
 * makes 2n).  Counted over the whole launch, so threads that compute
 * several elements each, or load for each other, are graded the same; and
 * in floats (bytes / 4), so float4 loads count for the four they bring. */
static int loads_per_element(const check_counts *c, int n, int tile, char *msg, size_t len)
{
    unsigned long long phases = (unsigned long long)((n + tile - 1) / tile);
    unsigned long long elements = (unsigned long long)n * n, allowed = 2 * phases * elements;
    unsigned long long loaded = c->global_load_bytes / sizeof(float);
    double per = (double)loaded / (double)elements;
    if (loaded > allowed) {
        snprintf(msg, len, "%.2f floats loaded from global memory per element of C; with TILE=%d tiles each "
                 "element of A and B is loaded once per tile of C that needs it: at most 2 * ceil(%d / %d) = %llu "
                 "(the naive kernel: %d)", per, tile, n, tile, 2 * phases, 2 * n);
        return 0;
    }
    snprintf(msg, len, "%.2f floats loaded from global memory per element of C, at most 2 * ceil(n / TILE) = %llu "
             "with TILE=%d (the naive kernel: %d)", per, 2 * phases, tile, 2 * n);
    return 1;
}

static int loads_tile16(const check_counts *c, int n, char *msg, size_t len) { return loads_per_element(c, n, 16, msg, len); }
static int loads_tile32(const check_counts *c, int n, char *msg, size_t len) { return loads_per_element(c, n, 32, msg, len); }

Suite *suite_04_tiled(void)
{
    Suite *s = suite_create("04-tiled");
    grading_add_size_tests_from_table(s);
    /* The idea, on the simulator's counts (built with each tile width).
     * Reuse is counted at n = 128, a whole number of tiles of either width:
     * how a kernel meets the edges is the size tests' and the bounds test's
     * to judge, and a kernel that pads A and B with zeros to whole tiles
     * (copies on the device, a loop with no edge tests) loads and stores
     * exactly what one with edge tests does there.  Above the small size
     * tests' 100, so a kernel that hung there is not run again here (a
     * hang costs a stage one time limit; student_run.c). */
    grading_add_structure_test(s, "loads per element (TILE=16)", "check-TILE=16", 128, loads_tile16);
    grading_add_structure_test(s, "loads per element (TILE=32)", "check-TILE=32", 128, loads_tile32);
    grading_add_structure_test(s, "one store per element", "check-TILE=32", 128, rule_one_store_per_element);
    grading_add_structure_test(s, "barriers (TILE=16)", "check-TILE=16", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "barriers (TILE=32)", "check-TILE=32", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check-TILE=32", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
