/* Stage 09-tensor-cores: the product on tensor cores through nvcuda::wmma,
 * TF32 inputs and float sums, compared under the TF32 tolerance
 * (common/harness.h).  The sizes walk the kernel's paths: n % 4 == 0 takes
 * 16-byte copies and stores whole fragments straight into C, other n take
 * 4-byte copies and store through shared memory, as C's edges do; 17 is
 * one past a fragment, 129 one past the block's 128 rows, 257 one past its
 * 256 columns. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_09_tensor_cores(void)
{
    Suite *s = suite_create("09-tensor-cores");
    grading_add_size_tests_from_table(s);
    /* A GeForce RTX 30 or 40 offers a block 99 KiB (101 376 bytes), less
     * than the 156 672 the launcher's BK = 32 needs: there it takes
     * BK = 16, and the kernel must follow BK (a k loop written for 32
     * fails here).  264: 16-byte copies and partial block tiles. */
    grading_add_small_device_test(s, "n=264 on a 99 KiB device", 264, 99 * 1024);
    /* The idea, on the simulator's counts: the whole product in mma_sync,
     * at whole tiles and where none divides n (100: partial fragments);
     * and C made by it, not by FP32 multiply-adds beside counted mma_sync
     * calls (the probe: C doubles with mma_sync's products doubled). */
    grading_add_tensor_core_test(s, "tensor cores", "check", 256);
    grading_add_tensor_core_test(s, "tensor cores (n=100)", "check", 100);
    grading_add_structure_test(s, "conflict-free fragment loads", "check", 256, rule_conflict_free_loads);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
