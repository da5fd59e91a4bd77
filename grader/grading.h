/* What a stage's Check suite uses to test a student's kernel. */
#ifndef GRADING_H
#define GRADING_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "check_counters.h"
#include "lab_exec_protocol.h"

typedef struct {
    const char *stage;     /* "01-naive" */
    const char *lab_exec;  /* the program holding the student's code */
    const char *out_dir;   /* logs and notes of this stage's run */
    uint64_t seed_base;    /* public for students, secret for instructors */
    double timeout_scale;  /* multiplies every test's time limit */
    const char *answers;   /* the submission's answers.txt (may not exist) */
    const char *answer_key; /* grader/answers/<stage>.tsv */
    int on_simulator;      /* every build runs on the simulator (GRADE_BACKEND=sim) */
} grading_context;

extern grading_context grading;

/* How many random inputs a size test multiplies, one after another in one
 * run: three at the small sizes, where a kernel that carries something from
 * one product to the next (a sum never reset, C read back, a result kept
 * from the last call) shows on the second or third; one at the large sizes
 * (n >= large_size), which a stage tests for size alone (many blocks and
 * phases): a second large product would prove nothing the small sizes'
 * three do not, and costs the simulator as long as the first. */
enum { small_size_seeds = 3, large_size_seeds = 1, large_size = 1000 };

/* The stage's size tests, written once: its points table
 * (grader/suites/<stage>.points.tsv) names each, with its points and what
 * it proves, and this adds one test case per row named "n=<size>" (the
 * student's matmul on random inputs of that size, each compared with the
 * reference), or "<variant> n=<size>" for a build variant listed in
 * grader/variants.tsv ("TILE=16 n=100"), in the table's order.  A table
 * that cannot be read, or a size that is no size, is the kit's error. */
void grading_add_size_tests_from_table(Suite *s);

/* A size test on a smaller GPU: `name`, the student's matmul at n on a
 * device that offers a block `shared_optin` bytes of shared memory once its
 * kernel opts in (sharedMemPerBlockOptin; the H200 offers 227 KiB), as
 * LAB_SHARED_PER_BLOCK_OPTIN makes both backends report it
 * (common/sim/launch_limits.h, grader/gpu_device_offer.cpp).  A matmul that
 * asks the device and fits what it offers passes; one that asks for more
 * fails to launch.  Its points are in the points table under `name`. */
void grading_add_small_device_test(Suite *s, const char *name, int n, size_t shared_optin);

/* A test named "n=<size> refused": the launch for this n must fail with
 * cudaErrorInvalidConfiguration (one block cannot hold n*n threads). */
void grading_add_refused_test(Suite *s, int n);

/* One test per question of the stage's quiz, named "quiz Q<k>": the
 * submission's answers.txt against grader/answers/<stage>.tsv. */
void grading_add_quiz_tests(Suite *s);

/* What a test runs: no build of the submission (the quiz), one build (the
 * plain one for variant NULL, else build-<variant>/), or a size test's build,
 * which off the simulator also asks the check build of its variant. */
enum test_runs { RUNS_NO_BUILD, RUNS_BUILD, RUNS_SIZE_TEST };

/* What grade_suite is doing: grading, or listing its tests (--list) or the
 * builds they run (--builds). */
enum { LIST_NONE, LIST_TESTS, LIST_BUILDS };
extern int grading_listing;

/* Creates the TCase of a graded test, by the name the points table knows
 * it by.  With `grade_suite --list` (grading_listing LIST_TESTS) it also
 * prints "stage<TAB>name", which the build compares with the stage's
 * points table (grader/suites/<stage>.points.tsv); with `--builds`
 * (LIST_BUILDS), "name<TAB>folders", the build folders the test runs,
 * of which grade.sh makes only those its GRADE_CASES need. */
TCase *grading_tcase(const char *name, enum test_runs runs, const char *variant);

/* Room for item number `count` in a table of `size`-byte items that grows
 * as the suites declare tests (no fixed cap, so no test is ever left out):
 * returns the table, moved if it had to grow. */
void *grading_grow(void *items, int *capacity, int count, size_t size);

/* What the simulator's check mode counted over one run (all launches):
 * one field per counter of common/check_counters.h, merged over the
 * launches as it says. */
typedef struct {
    unsigned long long launches;
#define CHECK_COUNT_FIELD(name, merge, meaning) unsigned long long name;
    CHECK_COUNTERS(CHECK_COUNT_FIELD)
#undef CHECK_COUNT_FIELD
    /* What matmul moved while it ran (lab_exec's "matmul" lines): */
    unsigned long long copy_reports;
    matmul_ledger moved;
    char findings[1536]; /* the first findings, one per line, for messages */
    char wrong_result[1024]; /* why C was wrong, or "": counts of a wrong run still say what it did */
    long wrong_elements, elements; /* of C: how much of the product is wrong */
} check_counts;

/* Runs the check build of the submission (variant "check" or, e.g.,
 * "check-TILE=16" from grader/variants.tsv) at size n and sums what each
 * launch reported; once per variant and size in a grade, the tests after
 * the first reading what it measured.  Aborts the test, saying why, if it
 * could not run or its counts cannot be credited (a product made on the
 * host, host memory reached, blocks racing).  A wrong result is said in
 * wrong_result and wrong_elements: the structural test asks that most of
 * C is right (structure.c). */
void grading_run_check(const char *variant, int n, check_counts *out);

/* A structural rule: given what check mode counted for size n, writes a
 * one-line summary (pass) or what to look at (fail) and says which. */
typedef int (*structure_rule)(const check_counts *c, int n, char *msg, size_t len);

/* A test named `name`: the check build `variant` run at size n (its result
 * must be right too), judged by `rule`. */
void grading_add_structure_test(Suite *s, const char *name, const char *variant, int n, structure_rule rule);

/* The tensor-core stage's test: all n^3 multiply-adds in mma_sync
 * (rule_tensor_cores), and C made by them: run again with every product
 * mma_sync adds doubled, C must double (grading_mma_probe), which a C
 * computed by FP32 multiply-adds beside mma_sync calls does not. */
void grading_add_tensor_core_test(Suite *s, const char *name, const char *variant, int n);
/* 1 when C doubles with mma_sync's products doubled (no more elements
 * wrong than the plain check run's wrong_before), else 0 and why. */
int grading_mma_probe(const char *variant, int n, long wrong_before, char *msg, size_t len);

/* Rules several stages share. */
int rule_no_hazards(const check_counts *c, int n, char *msg, size_t len);
int rule_no_bank_conflicts(const check_counts *c, int n, char *msg, size_t len);
int rule_in_bounds(const check_counts *c, int n, char *msg, size_t len);
/* The same two at a size with partial tiles, for stages 04-08: first, the
 * kernel tiled there too (shared memory read, global loads far below the
 * naive kernel's), not another kernel for the sizes its tile does not divide. */
int rule_tiled_no_hazards(const check_counts *c, int n, char *msg, size_t len);
int rule_tiled_in_bounds(const check_counts *c, int n, char *msg, size_t len);
int rule_transposed_tile(const check_counts *c, int n, char *msg, size_t len); /* a tile stored down its columns */
int rule_one_store_per_element(const check_counts *c, int n, char *msg, size_t len);
int rule_loaded_once(const check_counts *c, int n, char *msg, size_t len);  /* 2 n^2 global loads */
int rule_shared_used(const check_counts *c, int n, char *msg, size_t len);  /* the product reads shared memory */
int rule_computed_by_kernel(const check_counts *c, int n, char *msg, size_t len); /* C from a kernel, not the host */
int rule_coalesced_loads(const check_counts *c, int n, char *msg, size_t len); /* sectors near the fewest */

/* What every test asks of a run before it counts the result: matmul copied
 * to the host fewer bytes than the host would need to compute any element of
 * C, from it no more than a few numbers of its own (computed_by_kernel.c
 * says how many), and gave no kernel a
 * pointer to host memory (the simulator's ledger).  moved sums `calls` calls
 * of matmul at size n.  1 when so, else 0 with the reason in msg. */
int ledger_says_device_computed(const matmul_ledger *moved, unsigned long long calls, int n, char *msg, size_t len);
int rule_register_tiling(const check_counts *c, int n, char *msg, size_t len); /* <= 0.5 shared words per multiply-add */
int rule_block_reuse(const check_counts *c, int n, char *msg, size_t len);     /* <= 1/32 global words per multiply-add */
int rule_tensor_cores(const check_counts *c, int n, char *msg, size_t len);   /* all n^3 multiply-adds in mma_sync */
int rule_conflict_free_loads(const check_counts *c, int n, char *msg, size_t len); /* shared loads without bank conflicts */

/* A test's last act: the proof, read by the runner, that it ran to its end
 * (a process that exits early is otherwise reported as passed by Check). */
void grading_record_pass(const char *test, const char *summary);

/* Wall-clock budget for a run of `seeds` products of size n. */
double grading_timeout(int n, int seeds);

#endif
