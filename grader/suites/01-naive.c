/* Stage 01-naive: the kernel is right for every size, tile multiples or
 * not.  Sizes 31, 33, 100 and 257 are not multiples of any block width a
 * student is likely to pick, so they catch a missing edge guard or a grid
 * that is one block short; 1 and 2 catch a guard that is off by one.  A
 * structural test makes sure the kernel, not the host, computed C; the
 * quiz asks for the counts the lesson works out. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_01_naive(void)
{
    Suite *s = suite_create("01-naive");
    static const int small[] = {1, 2, 3, 16, 31, 33, 64, 100, 257};
    static const int large[] = {1000};
    grading_add_size_tests(s, small, 9, small_size_seeds);
    grading_add_size_tests(s, large, 1, large_size_seeds);
    /* Right answers are not enough: the simulator's counts show that a
     * kernel computed them (n = 100: edge blocks too). */
    grading_add_structure_test(s, "computed by the kernel", "check", 100, rule_computed_by_kernel);
    grading_add_quiz_tests(s);
    return s;
}
