/* test_check_mode: unit tests for the simulator's check mode
 * (common/sim/check_mode.cpp and the files beside it): the counts and
 * findings it reports for small kernels whose right answers can be worked
 * out by hand, one part per file of this folder:
 *
 *   barriers.cu                       hazards of missing barriers, divergent
 *                                     barriers, uninitialised shared reads
 *   bank_conflicts_and_coalescing.cu  wavefronts and sectors of requests
 *   async_copy.cu                     cp.async's copies, waits and barriers
 *   memory_kinds.cu                   bounds, host memory, __device__ data,
 *                                     the device heap, a kernel that spins
 *   no_false_findings.cu              what must raise nothing
 *   block_races.cu                    races between blocks
 *   tensor_cores.cu                   WMMA fragment loads from shared memory
 *
 * Build and run from the repo root:   make test-sim-unit
 *
 * Each file is compiled as a lab's check build is (common/sim/tests/
 * sim_tests.mk and common/build.mk): its launches rewritten, then clang++
 * with CHECK_CXXFLAGS (common/backend.mk), which has -DLAB_CHECK_MODE and
 * -fsanitize-coverage=func,trace-loads,trace-stores, so every load and store
 * calls the checker's hooks and check mode is on from the start.
 *
 * Each test makes one launch with SIM_CHECK_OUT naming a fresh temporary
 * file, then reads back the checker's machine-readable lines:
 *
 *   launch=1 site=barriers.cu:NN ... global_loads=... hazards=...
 *   finding launch=1 kind=... <text>
 *
 * and asserts exact values.  The expected numbers follow the GPU's rules:
 * a request is one access by the 32 lanes of a warp; a shared request
 * takes one wavefront per distinct word in its busiest bank (lanes reading
 * one word share it: a broadcast), and "bank conflicts" are the wavefronts
 * beyond the first; a global request costs one 32-byte sector per distinct
 * sector its lanes touch.
 *
 * Check's fork mode (its default) is needed: each test runs in its own
 * process, so its SIM_CHECK_OUT setting, the checker's launch counter and
 * any sticky error stay inside it.  Do not run with CK_FORK=no.
 */
#include "check_mode_tests.h"

static const char *this_file_path() { return __FILE__; }

int main(void)
{
    Suite *s = suite_create("check_mode");
    add_barrier_tests(s);
    add_traffic_tests(s);
    add_async_copy_tests(s);
    add_memory_kind_tests(s);
    add_no_false_finding_tests(s);
    add_block_race_tests(s);
    add_tensor_core_tests(s);
    SRunner *sr = srunner_create(s);
    if (srunner_fork_status(sr) == CK_NOFORK)
        fprintf(stderr, "test_check_mode: CK_FORK=no: these tests need fork mode (SIM_CHECK_OUT and the "
                        "launch counter are per process); expect failures\n");
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
