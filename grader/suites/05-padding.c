/* Stage 05-padding: the transposed-tile kernel (padded or not, which later
 * structural checks look at) is right for every size.  TILE is fixed at 32
 * here: 1 and 2 are a single partial tile, 31 and 33 just below and above
 * one tile, 64 two whole tiles, 100, 257 and 1000 partial last tiles. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* A padded tile leaves words nobody touches between its rows: the shared
 * memory a block uses spans more words than it touches. */
static int padding_present(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->shared_span_words <= c->shared_words) {
        snprintf(msg, len, "the %llu shared words a block uses have no gaps: no padding column (declare the "
                 "transposed tile [TILE][TILE + 1])", c->shared_words);
        return 0;
    }
    snprintf(msg, len, "padded: %llu shared words used, spread over %llu", c->shared_words, c->shared_span_words);
    return 1;
}

Suite *suite_05_padding(void)
{
    Suite *s = suite_create("05-padding");
    static const int small[] = {1, 2, 31, 33, 64, 100, 257};
    static const int large[] = {1000};
    grading_add_size_tests(s, small, 7, 3);
    grading_add_size_tests(s, large, 1, 2);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "no bank conflicts", "check", 100, rule_no_bank_conflicts);
    grading_add_structure_test(s, "padding present", "check", 100, padding_present);
    grading_add_structure_test(s, "barriers", "check", 100, rule_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
