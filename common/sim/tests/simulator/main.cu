/* test_simulator: the CPU simulator's unit tests (common/sim): launches,
 * barriers, shared and device memory, faults and the runtime's error state,
 * one part per file of this folder:
 *
 *   launches.cu            configurations, limits, indexing, arguments, streams
 *   device_functions.cu    intrinsics, math, atomics, vector types
 *   barriers_and_warps.cu  barriers, per-block shared memory, warp calls, groups
 *   memory.cu              allocations, copies, the ledger, stacks, device heap
 *   faults.cu              out-of-bounds accesses and sticky errors
 *   tensor_cores.cu        nvcuda::wmma (TF32): rounding, layouts, misuse
 *   helpers.cu             what several parts use (simulator_tests.h)
 *
 * Build and run from the repo root:   make test-sim-unit
 *
 * (common/sim/tests/sim_tests.mk): each file's `<<<...>>>` launches are
 * rewritten as a lab's are (build/sim/common/rewrite_launch), compiled with
 * g++ as a lab's fast build is, and linked with libsim.a and Check.
 *
 * Check's fork mode (its default) is needed: each test runs in its own
 * process, so a sticky error, a SIM_THREADS setting (read when the worker
 * pool starts, at the first launch) or a deliberate SIGSEGV stays inside its
 * test.  Do not run with CK_FORK=no.
 */
#include "simulator_tests.h"

int main(void)
{
    Suite *s = suite_create("simulator");
    add_launch_tests(s);
    add_device_function_tests(s);
    add_barrier_and_warp_tests(s);
    add_memory_tests(s);
    add_fault_tests(s);
    add_tensor_core_tests(s);
    SRunner *sr = srunner_create(s);
    if (srunner_fork_status(sr) == CK_NOFORK)
        fprintf(stderr, "test_simulator: CK_FORK=no: these tests need fork mode (signals, sticky errors, "
                        "SIM_THREADS); expect failures\n");
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
