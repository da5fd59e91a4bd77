/* Structural tests: what the simulator's check mode counted, judged by a
 * rule.  They grade the idea of a stage (data loaded once, barriers where
 * they must be, no bank conflicts) on top of the result, whatever shape the
 * student's code has. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading.h"
#include "student_run.h"

static struct structure_test {
    const char *name, *variant;
    int n;
    structure_rule rule;
    int mma_probe; /* and C must double with mma_sync's products (grading_mma_probe) */
} *tests;
static int test_count, test_capacity;

START_TEST(test_structure)
{
    check_counts c;
    grading_run_check(tests[_i].variant, tests[_i].n, &c);
    char msg[1024];
    int ok = tests[_i].rule(&c, tests[_i].n, msg, sizeof msg);
    if (!ok)
        ck_abort_msg("n=%d: %s%s%s%s%s", tests[_i].n, msg, c.findings[0] ? "\nThe check report says:\n" : "",
                     c.findings, c.wrong_result[0] ? "\nThe result is wrong too: " : "", c.wrong_result);
    /* The rule held and the result is wrong.  A kernel that computed most
     * of the product (a wrong edge: a guard off by one, a partial tile
     * dropped) keeps the points its structure earned: the correctness tests
     * at sizes that reach the edge take the points of the edge.  One that
     * did not compute the product earns nothing here; what check mode
     * found (a hazard, a read of shared memory nothing wrote) often says
     * why. */
    if (c.wrong_result[0] && c.wrong_elements * 10 > c.elements)
        ck_abort_msg("%s\n(%s; a structural check needs the product computed too: at least 90 %% of C right)%s%s",
                     c.wrong_result, msg, c.findings[0] ? "\nThe check report says:\n" : "", c.findings);
    if (c.wrong_result[0]) {
        size_t used = strlen(msg);
        snprintf(msg + used, sizeof msg - used, " (%ld of %ld elements of C wrong here: the correctness tests "
                 "grade those)", c.wrong_elements, c.elements);
    }
    if (tests[_i].mma_probe) {
        char why[1024];
        if (!grading_mma_probe(tests[_i].variant, tests[_i].n, c.wrong_elements, why,
                               sizeof why))
            ck_abort_msg("n=%d: %s (%s)", tests[_i].n, why, msg);
        size_t used = strlen(msg);
        snprintf(msg + used, sizeof msg - used, "; C doubled with mma_sync's products doubled: mma_sync made it");
    }
    grading_record_pass(tests[_i].name, msg);
}
END_TEST

static void add_test(Suite *s, const char *name, const char *variant, int n, structure_rule rule, int mma_probe)
{
    tests = grading_grow(tests, &test_capacity, test_count, sizeof *tests);
    int slot = test_count++;
    tests[slot].name = name;
    tests[slot].variant = variant;
    tests[slot].n = n;
    tests[slot].rule = rule;
    tests[slot].mma_probe = mma_probe;
    TCase *tc = grading_tcase(name, RUNS_BUILD, variant);
    /* The check run, and the probe's as long again. */
    tcase_set_timeout(tc, student_run_longest(grading_timeout(n, 1) * 10) * (mma_probe ? 2 : 1) + 30);
    tcase_add_loop_test(tc, test_structure, slot, slot + 1);
    suite_add_tcase(s, tc);
}

void grading_add_structure_test(Suite *s, const char *name, const char *variant, int n, structure_rule rule)
{
    add_test(s, name, variant, n, rule, 0);
}

void grading_add_tensor_core_test(Suite *s, const char *name, const char *variant, int n)
{
    add_test(s, name, variant, n, rule_tensor_cores, 1);
}

int rule_no_hazards(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->hazards || c->uninitialised_shared_reads || c->divergent_barriers) {
        snprintf(msg, len,
                 "%llu shared-memory hazards, %llu reads of shared memory nothing wrote, %llu barriers in divergent "
                 "code: a __syncthreads() is missing or misplaced (make check shows where)",
                 c->hazards, c->uninitialised_shared_reads, c->divergent_barriers);
        return 0;
    }
    snprintf(msg, len, "no shared-memory hazards, no reads before writes, no divergent barriers");
    return 1;
}

int rule_no_bank_conflicts(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->bank_conflicts_ld || c->bank_conflicts_st) {
        snprintf(msg, len, "bank conflicts: %llu extra wavefronts on shared loads, %llu on stores (make check names "
                 "the line and the degree)", c->bank_conflicts_ld, c->bank_conflicts_st);
        return 0;
    }
    snprintf(msg, len, "no bank conflicts in %llu shared loads and %llu stores", c->shared_loads, c->shared_stores);
    return 1;
}

/* Stages 05 and 06 are about one store: a tile written down its columns
 * (transposed), where a warp's 32 lanes land a row apart and, unpadded and
 * unswizzled, in one bank.  At least a quarter of the shared store requests
 * (a warp's stores, about shared_stores / 32) must go down a column: one of
 * the two tiles stored transposed.  Stage 04's tile, stored along its rows,
 * has no conflict to fix, so it does not count. */
int rule_transposed_tile(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->shared_stores == 0 || 4 * 32 * c->shared_column_stores < c->shared_stores) {
        snprintf(msg, len, "%llu of about %llu warp-wide shared stores go down a column of a tile: no tile is stored "
                 "transposed (stage 05's As[k][m], each lane a row apart), so there is no conflict here for this "
                 "stage to fix; a row-by-row tile (stage 04's) does not count", c->shared_column_stores,
                 (c->shared_stores + 31) / 32);
        return 0;
    }
    snprintf(msg, len, "a tile stored transposed: %llu of about %llu warp-wide shared stores go down a column",
             c->shared_column_stores, (c->shared_stores + 31) / 32);
    return 1;
}

/* From stage 04 on the kernel tiles at every n, the partial tiles at the
 * edges included.  At a size no tile divides (100), a matmul that hands the
 * product to another kernel (the naive one wherever TILE does not divide n)
 * would pass the structural tests made there without a tile in sight: no
 * shared memory, so nothing to race and nothing to zero-fill.  So those
 * tests first ask that the products read shared memory and that global
 * memory gave at most a quarter of the naive kernel's 2n floats per element
 * of C: any tile of 8 or wider is well inside that, zero-filled or with its
 * edge loads clamped. */
static int tiled_at_the_edges(const check_counts *c, int n, char *msg, size_t len)
{
    double per = c->global_load_bytes / 4.0 / ((double)n * n), most = n / 2.0;
    if (c->shared_loads > 0 && per <= most)
        return 1;
    snprintf(msg, len, "at n=%d, where the tiles at the edges are partial, the kernel %s and loaded %.1f floats from "
             "global memory per element of C (the naive kernel: %d; a tiled one: a few, at most %.0f here): the tiled "
             "kernel must run at every n, zero-filling the partial tiles (lesson 04, \"The edges: zero-fill, not "
             "early return\"), rather than leave the sizes its tile does not divide to another kernel",
             n, c->shared_loads > 0 ? "read shared memory" : "read no shared memory", per, 2 * n, most);
    return 0;
}

int rule_tiled_no_hazards(const check_counts *c, int n, char *msg, size_t len)
{
    return tiled_at_the_edges(c, n, msg, len) && rule_no_hazards(c, n, msg, len);
}

int rule_tiled_in_bounds(const check_counts *c, int n, char *msg, size_t len)
{
    return tiled_at_the_edges(c, n, msg, len) && rule_in_bounds(c, n, msg, len);
}

int rule_in_bounds(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->out_of_bounds || c->host_accesses) {
        snprintf(msg, len, "%llu accesses outside the device arrays and %llu to host memory: every load needs the "
                 "edge guard (load 0 outside the matrix)", c->out_of_bounds, c->host_accesses);
        return 0;
    }
    snprintf(msg, len, "every access inside A, B and C");
    return 1;
}

/* Coalesced: the 32-byte sectors a warp's loads touch, against the fewest
 * their bytes could fill, over the whole launch.  Lanes reading one address
 * (a broadcast) or neighbouring ones touch about the fewest; lanes reading
 * addresses n floats apart (a column of a row-major matrix) touch a sector
 * each, 32 where a row needs 4.  Judged in bytes, so 16-byte (float4)
 * loads, 16 sectors for a warp's 512 bytes, are as coalesced as 4-byte
 * ones; the 1/8 above the fewest leaves room for rows that start inside a
 * sector. */
int rule_coalesced_loads(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    double per = c->load_requests ? (double)c->load_sectors / c->load_requests : 0;
    double fewest = c->load_requests ? (double)c->load_sectors_fewest / c->load_requests : 0;
    if (c->load_sectors > 1.125 * c->load_sectors_fewest) {
        snprintf(msg, len, "%.1f sectors of 32 bytes per warp-wide global load, where the bytes it asks for fit in "
                 "%.1f: the global loads are not coalesced (the lanes of a warp read addresses far apart)", per, fewest);
        return 0;
    }
    snprintf(msg, len, "coalesced: %.2f sectors per warp-wide global load, the fewest its bytes allow being %.2f", per,
             fewest);
    return 1;
}

/* Counted in bytes, so a kernel that stores C as float2 or float4 (fewer,
 * wider stores) is graded as one that stores it a float at a time. */
int rule_one_store_per_element(const check_counts *c, int n, char *msg, size_t len)
{
    /* At most: an element stored more than once is the structure's fault;
     * one never stored is an edge the correctness tests see. */
    unsigned long long want = (unsigned long long)n * n, stored = c->global_store_bytes / sizeof(float);
    if (c->global_store_bytes > want * sizeof(float)) {
        snprintf(msg, len, "%llu floats stored to global memory (an atomic counts as a store) for %llu elements of "
                 "C: write each element once, after the last phase (a store inside the tile loop writes it every "
                 "phase)", stored, want);
        return 0;
    }
    if (stored < want)
        snprintf(msg, len, "no element of C stored twice (%llu floats for %llu elements, in %llu store instructions)",
                 stored, want, c->global_stores);
    else
        snprintf(msg, len, "each element of C stored once (%llu floats, in %llu store instructions)", want,
                 c->global_stores);
    return 1;
}

/* Shared memory's promise for one block: each element of A and B comes from
 * global memory once (2 n^2 loads in all, where the naive kernel makes 2 n^3).
 * In bytes, so wider loads (float2, float4) count for the floats they bring. */
int rule_loaded_once(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long want = 2ull * (unsigned long long)n * n, loaded = c->global_load_bytes / sizeof(float);
    if (c->global_load_bytes != want * sizeof(float)) {
        snprintf(msg, len, "%llu floats loaded from global memory for %d x %d matrices; loading each element of A "
                 "and B once makes 2 * n^2 = %llu (the dot product must read the shared copies)", loaded, n, n, want);
        return 0;
    }
    snprintf(msg, len, "each element of A and B loaded from global memory once (%llu loads; the naive kernel: %llu)",
             want, want * (unsigned long long)n);
    return 1;
}

/* The products read A and B from shared memory: every element of both is
 * stored there, and read back from there at least once.  At least, not
 * 2n per element of C: a thread that computes several elements may keep a
 * value it read in a register.  In floats (bytes / 4), so wider accesses
 * count for what they move. */
int rule_shared_used(const check_counts *c, int n, char *msg, size_t len)
{
    unsigned long long writes = 2ull * (unsigned long long)n * n, reads = writes;
    unsigned long long stored = c->shared_store_bytes / sizeof(float), loaded = c->shared_load_bytes / sizeof(float);
    if (stored < writes || loaded < reads) {
        snprintf(msg, len, "%llu floats stored to shared memory and %llu loaded from it: the tiles of A and B belong "
                 "in __shared__ arrays and the dot product reads them there (expected at least %llu and %llu)",
                 stored, loaded, writes, reads);
        return 0;
    }
    snprintf(msg, len, "A and B staged in shared memory (%llu stores, %llu loads)", c->shared_stores, c->shared_loads);
    return 1;
}

/* Register tiling: every multiply-add needs one value of A and one of B.
 * Read straight from shared memory (stage 04) that is 2 shared words per
 * multiply-add; a thread that keeps a TM x TN block of C reads TM + TN words
 * for TM * TN multiply-adds: 0.25 for 8 x 8, 0.5 for 4 x 4, 1.125 for a
 * 1-D strip of 8.  Counted in bytes, so float4 reads count as 4 words. */
/* The rules below count per multiply-add of C's product, n^3.  At a size
 * no tile divides, the blocks at the edge also work on the zeros past C:
 * up to (n rounded up to 256)^3 / n^3 as much for tiles up to 256 wide, the
 * allowance they get (1 at n = 256, 1.012 at 255, 1.048 at 252). */
static double edge_allowance(int n)
{
    double covered = ceil(n / 256.0) * 256;
    return covered * covered * covered / ((double)n * n * n);
}

int rule_register_tiling(const check_counts *c, int n, char *msg, size_t len)
{
    double products = (double)n * n * n;
    double per = c->shared_load_bytes / 4.0 / products;
    if (c->shared_load_bytes == 0 || per > 0.5 * edge_allowance(n) + 1e-9) {
        snprintf(msg, len, "%.3f shared words read per multiply-add (stage 04 reads 2); a thread that computes a "
                 "TM x TN block of C from registers reads (TM + TN) / (TM * TN): at most 0.5, a 4 x 4 block or larger",
                 per);
        return 0;
    }
    snprintf(msg, len, "%.3f shared words read per multiply-add (stage 04: 2; a 4 x 4 thread block: 0.5)", per);
    return 1;
}

/* Block tiling: each element of A or B loaded from global memory serves a
 * whole row (or column) of the block's tile of C.  A BM x BN block tile
 * loads 1/BM + 1/BN words per multiply-add: 1/16 for stage 04's 32 x 32,
 * 1/32 for 64 x 64, 1/64 for 128 x 128. */
int rule_block_reuse(const check_counts *c, int n, char *msg, size_t len)
{
    double products = (double)n * n * n;
    double per = c->global_load_bytes / 4.0 / products;
    if (c->global_load_bytes == 0 || per > edge_allowance(n) / 32 + 1e-9) {
        snprintf(msg, len, "%.4f global words loaded per multiply-add (1/%.0f); a BM x BN block tile loads "
                 "1/BM + 1/BN: at most 1/32, a 64 x 64 tile or larger (stage 04's 32 x 32: 1/16)",
                 per, per > 0 ? 1 / per : 0.0);
        return 0;
    }
    snprintf(msg, len, "%.4f global words loaded per multiply-add (1/%.0f; stage 04's 32 x 32 tile: 1/16)", per,
             1 / per);
    return 1;
}

/* The tensor-core stages: every one of the n^3 multiply-adds is done by a
 * warp's wmma::mma_sync (2048 at m16n16k8) or mma_m16n8k8_tf32 (1024),
 * counted by the simulator as the lanes compute their parts.  Zero-filled edge tiles add more, never fewer:
 * a kernel that leaves any of the product to plain float arithmetic (its
 * edges, say) counts fewer than n^3. */
int rule_tensor_cores(const check_counts *c, int n, char *msg, size_t len)
{
    double products = (double)n * n * n;
    double share = c->tensor_core_macs / products;
    if (share < 1.0 - 1e-12) {
        snprintf(msg, len, "%.0f of the %.0f multiply-adds (%.1f %%) ran on tensor cores: every product of this stage "
                 "goes through the tensor cores (wmma::mma_sync in stage 09, mma_m16n8k8_tf32 in stage 10), edge tiles "
                 "included (zero-fill them and multiply them like any other)",
                 (double)c->tensor_core_macs, products, 100 * share);
        return 0;
    }
    snprintf(msg, len, "%.0f multiply-adds on tensor cores, %.2f times the product's n^3 (zero-filled edges add "
             "the rest)", (double)c->tensor_core_macs, share);
    return 1;
}

/* Loads alone: the tensor-core stage pads its tiles for its fragment loads;
 * its copies into shared memory are given, not graded. */
int rule_conflict_free_loads(const check_counts *c, int n, char *msg, size_t len)
{
    (void)n;
    if (c->bank_conflicts_ld) {
        snprintf(msg, len, "bank conflicts: %llu extra wavefronts on shared loads (make check names the line and the "
                 "degree): where it is a fragment load, pad the tiles' rows so that the rows one load reads start in "
                 "different banks",
                 c->bank_conflicts_ld);
        return 0;
    }
    snprintf(msg, len, "no bank conflicts in %llu shared loads", c->shared_loads);
    return 1;
}
