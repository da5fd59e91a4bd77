/* Stage 05-padding: the transposed-tile kernel (padded or not, which later
 * structural checks look at) is right for every size.  TILE is fixed at 32
 * here: 1 and 2 are a single partial tile, 31 and 33 just below and above
 * one tile, 64 two whole tiles, 100, 257 and 1000 partial last tiles. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_05_padding(void)
{
    Suite *s = suite_create("05-padding");
    static const int small[] = {1, 2, 31, 33, 64, 100, 257};
    static const int large[] = {1000};
    grading_add_size_tests(s, small, 7, 3);
    grading_add_size_tests(s, large, 1, 2);
    grading_add_quiz_tests(s);
    return s;
}
