/* Stage 06-bank-conflicts: the swizzled transposed-tile kernel is right for
 * every size.  A swizzle applied on the store but not on the read (or the
 * other way round) scrambles which products are summed, so any size with
 * more than one row of the tile in use fails; 1 and 2 are a single partial
 * tile, 31 and 33 just below and above one tile, 64 two whole tiles, 100,
 * 257 and 1000 partial last tiles. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_06_bank_conflicts(void)
{
    Suite *s = suite_create("06-bank-conflicts");
    static const int small[] = {1, 2, 31, 33, 64, 100, 257};
    static const int large[] = {1000};
    grading_add_size_tests(s, small, 7, 3);
    grading_add_size_tests(s, large, 1, 2);
    grading_add_quiz_tests(s);
    return s;
}
