/* Stage 02-shared-2x2: one block of n x n threads, operands staged in shared
 * memory.  The stage is about n = 2: four threads, each loading one element
 * of A and one of B that the other three then read, so a missing or
 * misplaced __syncthreads(), or a wrong index into the shared arrays, gives
 * wrong values.  n = 1 catches a dot product that loops to a fixed bound
 * instead of n, and a launch that is not one thread per element. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_02_shared_2x2(void)
{
    Suite *s = suite_create("02-shared-2x2");
    static const int sizes[] = {2, 1};
    grading_add_size_tests(s, sizes, 2, 3);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "loaded once", "check", 2, rule_loaded_once);
    grading_add_structure_test(s, "shared memory used", "check", 2, rule_shared_used);
    grading_add_structure_test(s, "barrier", "check", 2, rule_no_hazards);
    grading_add_quiz_tests(s);
    return s;
}
