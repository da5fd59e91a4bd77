/* Stage 01-naive: the kernel is right for every size, tile multiples or
 * not.  Sizes 31, 33, 100 and 257 are not multiples of any block width a
 * student is likely to pick, so they catch a missing edge guard or a grid
 * that is one block short; 1 and 2 catch a guard that is off by one.  A
 * structural test makes sure the kernel, not the host, computed C, and
 * another that its loads are coalesced; the quiz asks for the counts the
 * lesson works out. */
#include <stdio.h>
#include <string.h>

#include "grading.h"
#include "stage_suites.h"

/* The mapping the lesson teaches, graded: threadIdx.x along the columns of
 * C, so a warp's lanes read one element of A (a broadcast) and a run of
 * neighbouring elements of B.  A kernel with x along the rows reads A down
 * a column, a sector per lane, and is right all the same: only these
 * counts (and the clock) see it.  Any kernel whose loads touch about the
 * fewest sectors passes, whatever its shape. */
static int coalesced_mapping(const check_counts *c, int n, char *msg, size_t len)
{
    if (rule_coalesced_loads(c, n, msg, len))
        return 1;
    size_t used = strlen(msg);
    snprintf(msg + used, len - used, ". Let threadIdx.x walk the columns of C (col = blockIdx.x * blockDim.x + "
             "threadIdx.x): neighbouring lanes then read neighbouring elements of B and one element of A "
             "(\"Why threadIdx.x walks the columns\"; make check shows the sectors per request of each load)");
    return 0;
}

Suite *suite_01_naive(void)
{
    Suite *s = suite_create("01-naive");
    grading_add_size_tests_from_table(s);
    /* Right answers are not enough: the simulator's counts show that a
     * kernel computed them (n = 100: edge blocks too). */
    grading_add_structure_test(s, "computed by the kernel", "check", 100, rule_computed_by_kernel);
    /* Coalesced, at a size whose rows are whole sectors (n = 128), so every
     * right mapping touches the fewest. */
    grading_add_structure_test(s, "coalesced loads", "check", 128, coalesced_mapping);
    grading_add_quiz_tests(s);
    return s;
}
