/* Stage 06-bank-conflicts: the swizzled transposed-tile kernel is right for
 * every size.  A swizzle applied on the store but not on the read (or the
 * other way round) scrambles which products are summed, so any size with
 * more than one row of the tile in use fails; 1 and 2 are a single partial
 * tile, 31 and 33 just below and above one tile, 64 two whole tiles, 100,
 * 257 and 1000 partial last tiles. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* The point of this stage: no conflicts without spending memory.  Padding
 * shows as a gap of unused words after every row of a tile. */
static int no_padding(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->shared_gaps >= 16) {
        snprintf(msg, len, "the %llu shared words a block uses have %llu gaps of unused words, one per row: "
                 "padding, where this stage asks for none", c->shared_words, c->shared_gaps);
        return 0;
    }
    snprintf(msg, len, "no padding: %llu shared words, no gap per row", c->shared_words);
    return 1;
}

Suite *suite_06_bank_conflicts(void)
{
    Suite *s = suite_create("06-bank-conflicts");
    grading_add_size_tests_from_table(s);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "no bank conflicts", "check", 100, rule_no_bank_conflicts);
    grading_add_structure_test(s, "transposed tile", "check", 100, rule_transposed_tile);
    grading_add_structure_test(s, "no padding", "check", 100, no_padding);
    /* A fix that moves the transpose into global memory reads A by columns
     * (structure.c: rule_coalesced_loads). */
    grading_add_structure_test(s, "coalesced loads", "check", 128, rule_coalesced_loads);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
