/* Stage 03-shared-3x3: the one-block shared-memory kernel for every n one
 * block can hold.  3 is the lesson's worked example; 1 and 2 catch loop
 * bounds and indices that only work for one size; 5 and 31 are odd sizes
 * between the usual powers of two; 16 is a common block width and 32 the
 * largest one block holds (1024 threads).  n = 33 needs 1089 threads in one block:
 * the launch must be refused with cudaErrorInvalidConfiguration, never turned
 * into a wrong answer or a silent partial result. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_03_shared_3x3(void)
{
    Suite *s = suite_create("03-shared-3x3");
    grading_add_size_tests_from_table(s);
    grading_add_refused_test(s, 33);
    /* The idea, on the simulator's counts. */
    grading_add_structure_test(s, "loaded once (n=3)", "check", 3, rule_loaded_once);
    grading_add_structure_test(s, "loaded once (n=32)", "check", 32, rule_loaded_once);
    grading_add_structure_test(s, "shared memory used", "check", 3, rule_shared_used);
    grading_add_structure_test(s, "barrier", "check", 32, rule_no_hazards);
    grading_add_quiz_tests(s);
    return s;
}
