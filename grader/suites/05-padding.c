/* Stage 05-padding: the transposed-tile kernel (padded or not, which later
 * structural checks look at) is right for every size.  TILE is fixed at 32
 * here: 1 and 2 are a single partial tile, 31 and 33 just below and above
 * one tile, 64 two whole tiles, 100, 257 and 1000 partial last tiles. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* A padded tile leaves one unused word (or more) at the end of every row:
 * the shared memory a block touches has a gap per row, where arrays merely
 * placed apart (or an extra row) leave one or two. */
static int padding_present(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->shared_gaps < 16) {
        snprintf(msg, len, "the %llu shared words a block uses have %llu gaps of unused words: no padding column "
                 "(declare the transposed tile [TILE][TILE + 1], one spare word per row)", c->shared_words,
                 c->shared_gaps);
        return 0;
    }
    snprintf(msg, len, "padded: %llu shared words used, with a gap after each row (%llu gaps)", c->shared_words,
             c->shared_gaps);
    return 1;
}

Suite *suite_05_padding(void)
{
    Suite *s = suite_create("05-padding");
    grading_add_size_tests_from_table(s);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "no bank conflicts", "check", 100, rule_no_bank_conflicts);
    grading_add_structure_test(s, "transposed tile", "check", 100, rule_transposed_tile);
    grading_add_structure_test(s, "padding present", "check", 100, padding_present);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
