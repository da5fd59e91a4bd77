/* Stage 04-tiled: the tiled kernel is right for every size and for both tile
 * widths the grader builds it with (grader/variants.tsv: -DTILE=16 and
 * -DTILE=32), so a kernel that hard-codes one width fails the other.  1 is a
 * single partial tile; 31 and 33 sit just below and above one 32-wide tile
 * (33 is also 16 + 16 + 1); 48 is a whole number of 16-wide tiles but not of
 * 32-wide ones, so only one build has a partial last tile; 100 and 1000 are
 * multiples of neither, and 1000 runs 32 (or 63) phases. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_04_tiled(void)
{
    Suite *s = suite_create("04-tiled");
    static const int small[] = {1, 31, 33, 48, 100};
    static const int large[] = {1000};
    grading_add_size_tests_built(s, "TILE=16", small, 5, 3);
    grading_add_size_tests_built(s, "TILE=16", large, 1, 2);
    grading_add_size_tests_built(s, "TILE=32", small, 5, 3);
    grading_add_size_tests_built(s, "TILE=32", large, 1, 2);
    grading_add_quiz_tests(s);
    return s;
}
