/* Stage 10-mma-sync: the product on tensor cores through PTX's
 * mma.sync m16n8k8 (mma_tf32.h), the fragments laid out by hand, TF32
 * inputs and float sums compared under the TF32 tolerance
 * (common/harness.h).  The sizes walk the kernel's paths: n % 4 == 0 takes
 * 16-byte copies, other n 4-byte ones; an even n stores C in pairs, an odd
 * one element by element; 17 is one past a 16-row tile, 129 one past the
 * block's 128 rows, 257 one past its 256 columns. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_10_mma_sync(void)
{
    Suite *s = suite_create("10-mma-sync");
    grading_add_size_tests_from_table(s);
    /* Where a block may have only 99 KiB of shared memory (a GeForce RTX
     * 30 or 40) the launcher takes BK = 16, and the kernel must follow BK. */
    grading_add_small_device_test(s, "n=264 on a 99 KiB device", 264, 99 * 1024);
    /* The idea, on the simulator's counts: the whole product in tensor-core
     * calls, at whole tiles and where none divides n; and C made by them
     * (the probe: C doubles with their products doubled). */
    grading_add_tensor_core_test(s, "tensor cores", "check", 256);
    grading_add_tensor_core_test(s, "tensor cores (n=100)", "check", 100);
    grading_add_structure_test(s, "conflict-free fragment loads", "check", 256, rule_conflict_free_loads);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
