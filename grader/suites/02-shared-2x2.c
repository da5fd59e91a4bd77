/* Stage 02-shared-2x2: one block of threads, operands staged in shared
 * memory.  The stage is about n = 2, and only n = 2 is graded: four threads,
 * each loading one element of A and one of B that the other three then
 * read, so a missing or misplaced __syncthreads(), or a wrong index into the
 * shared arrays, gives wrong values.  A kernel written for exactly the 2x2
 * case is right here; other sizes are stage 03's. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_02_shared_2x2(void)
{
    Suite *s = suite_create("02-shared-2x2");
    grading_add_size_tests_from_table(s);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "loaded once", "check", 2, rule_loaded_once);
    grading_add_structure_test(s, "shared memory used", "check", 2, rule_shared_used);
    grading_add_structure_test(s, "barrier", "check", 2, rule_no_hazards);
    grading_add_quiz_tests(s);
    return s;
}
