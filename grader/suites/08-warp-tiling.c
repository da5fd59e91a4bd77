/* Stage 08-warp-tiling: the kernel is right for every size, with the
 * 16-byte path (n a multiple of 4: 64, 100, 1000) and without it (1, 2, 3,
 * 31, 33, 130, 257, 1023), edge tiles in both; and it does what the lesson
 * adds to stage 07: float4 accesses, a conflict-free transposed A tile,
 * double buffering; and its launcher asks the device before it takes a
 * shape that needs more than 48 KiB of shared memory. */
#include <stdio.h>

#include "grading.h"
#include "stage_suites.h"

/* Bytes per access: 16 when every access is a float4, 4 when none is. */
static int wide_accesses(unsigned long long bytes, unsigned long long accesses, const char *what, const char *how,
                         char *msg, size_t len)
{
    double per = accesses ? (double)bytes / accesses : 0;
    if (per < 8) {
        snprintf(msg, len, "%.1f bytes per %s; %s", per, what, how);
        return 0;
    }
    snprintf(msg, len, "%.1f bytes per %s (float4: 16)", per, what);
    return 1;
}

/* 16-byte global loads: one instruction brings what four 4-byte loads did. */
static int float4_loads(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    return wide_accesses(c->global_load_bytes, c->global_loads, "global load instruction",
                         "float4 loads bring 16 (n is a multiple of 4 here, so every row starts 16-byte aligned)", msg,
                         len);
}

/* The products read their fragments of A and B as float4 from shared memory. */
static int float4_shared_reads(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    return wide_accesses(c->shared_load_bytes, c->shared_loads, "shared read",
                         "reading each thread's TM values of A and TN of B as float4 gives 16 (that is what the "
                         "transposed A tile is for)", msg, len);
}

/* Double buffering: while the products read one tile, the next is stored
 * into the other buffer, so most stretches between barriers do both: read
 * what an earlier stretch stored, and store what a later one reads (a
 * store nothing reads later, or read in the same stretch, is no tile). */
static int double_buffering(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->shared_phases == 0 || 2 * c->overlapped_phases < c->shared_phases) {
        snprintf(msg, len, "%llu of %llu stretches between barriers both read a tile an earlier one stored and "
                 "store one a later one reads (at least half must); with two buffers the next tile is stored (or "
                 "its cp.async copies waited for: the simulator lands them in the wait) in the same stretch as "
                 "this one is read, one barrier per tile: a second barrier between the reads and those stores "
                 "splits them (lesson 08, \"Double buffering\")",
                 c->overlapped_phases, c->shared_phases);
        return 0;
    }
    snprintf(msg, len, "double-buffered: %llu of %llu stretches between barriers store the next tile while reading "
             "this one", c->overlapped_phases, c->shared_phases);
    return 1;
}

Suite *suite_08_warp_tiling(void)
{
    Suite *s = suite_create("08-warp-tiling");
    grading_add_size_tests_from_table(s);
    /* The large shape's 49 664 bytes are more than a block may have on a
     * GPU that offers 48 KiB (compute capability 6.x, say): a matmul that
     * asks the device first takes the small shape there and stays right.
     * n = 2048 is where the solution's launcher takes the large shape. */
    grading_add_small_device_test(s, "n=2048 on a 48 KiB device", 2048, 48 * 1024);
    /* One check run at n = 256, which holds whole block tiles up to
     * 256 x 256 (see stage 07's suite). */
    grading_add_structure_test(s, "float4 loads", "check", 256, float4_loads);
    grading_add_structure_test(s, "float4 shared reads", "check", 256, float4_shared_reads);
    grading_add_structure_test(s, "register tiling", "check", 256, rule_register_tiling);
    grading_add_structure_test(s, "no bank conflicts", "check", 256, rule_no_bank_conflicts);
    grading_add_structure_test(s, "double buffering", "check", 256, double_buffering);
    /* Where no tile divides n, the same kernel and the same rules: 252 is a
     * multiple of 4 (the 16-byte path) and of no larger power of two
     * (stage 07's suite says why the register rule allows for the edge).
     * The four share one check run (grading_run_check). */
    grading_add_structure_test(s, "float4 loads (n=252)", "check", 252, float4_loads);
    grading_add_structure_test(s, "float4 shared reads (n=252)", "check", 252, float4_shared_reads);
    grading_add_structure_test(s, "register tiling (n=252)", "check", 252, rule_register_tiling);
    grading_add_structure_test(s, "double buffering (n=252)", "check", 252, double_buffering);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_structure_test(s, "in bounds (n=130)", "check", 130, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
