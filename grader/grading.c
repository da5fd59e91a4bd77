/* See grading.h.  Runs inside Check's forked test process; the student's
 * code runs one process further away, in lab_exec. */
#define _GNU_SOURCE
#include "grading.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "nan_patterns.h"
#include "student_run.h"

grading_context grading;

static struct size_test {
    int n, seeds;
    const char *variant; /* a build variant's name, or NULL for the plain build */
    size_t shared_optin; /* the smaller device's sharedMemPerBlockOptin, or 0: the device as it is */
    char name[48];
} *size_tests;
static int size_test_count, size_test_capacity;

/* The tolerance the stage's results are compared under (harness.h). */
static lab_precision stage_precision(void) { return lab_stage_precision(grading.stage); }

/* A check build (clang's, every access hooked) runs on the simulator,
 * whatever the backend graded. */

static int is_check_build(const char *variant) { return variant && !strncmp(variant, "check", 5); }

/* The folder grade.sh builds a variant in: build/ for the plain build
 * (variant NULL), build-<variant>/ beside it for each variant listed in
 * grader/variants.tsv, with "=" written "_" (make would read a path
 * holding "=" as a variable assignment). */
static void build_folder(const char *variant, char *out, size_t len)
{
    if (!variant) {
        snprintf(out, len, "build");
        return;
    }
    snprintf(out, len, "build-%s", variant);
    for (char *p = out; *p; p++)
        if (*p == '=')
            *p = '_';
}

/* The lab_exec of a build variant. */
static void lab_exec_path(const char *variant, char *out, size_t len)
{
    if (!variant) {
        snprintf(out, len, "%s", grading.lab_exec);
        return;
    }
    char folder[160];
    build_folder(variant, folder, sizeof folder);
    snprintf(out, len, "%s/%s%s/lab_exec", grading.out_dir, folder, is_check_build(variant) ? "/check" : "");
}

/* The check build whose ledger backs a size test's off the simulator
 * (computed_on_device): "check-<variant>", or "check" for the plain build. */
static void check_variant_of(const char *variant, char *out, size_t len)
{
    if (variant)
        snprintf(out, len, "check-%s", variant);
    else
        snprintf(out, len, "check");
}

/* Runs a build of the submission (variant NULL: the plain one).  The
 * simulator's programs may write only in their scratch folder
 * (student_run.c): every check build, and every build when grading on the
 * simulator. */
static void run_submission(const char *variant, int n, const uint64_t *seeds, int nseeds, double timeout,
                           const char *log, student_result *r)
{
    char program[4096];
    lab_exec_path(variant, program, sizeof program);
    student_run(program, n, seeds, nseeds, timeout, log, grading.on_simulator || is_check_build(variant), r);
    /* A program that could not even start (no process left for its user,
     * a folder it may not enter) says nothing of the student's code: the
     * stage's kit_error file makes the whole grading a kit error
     * (grade.sh), never a zero. */
    if (r->not_started && !r->build_missing) {
        char path[4096];
        snprintf(path, sizeof path, "%s/kit_error", grading.out_dir);
        FILE *f = fopen(path, "a");
        if (f) {
            fprintf(f, "the grader could not start the student's program (%s, at n=%d): %s\n",
                    variant ? variant : "plain build", n, r->start_error);
            fclose(f);
        }
    }
}

/* Every run's inputs come from one seed: the grading's base seed (public,
 * or the instructor's secret), the size, and what the run is for, so no
 * two kinds of run share inputs by accident and each can be replayed. */
enum run_purpose {
    /* 0 .. MAX_SIZE_TEST_SEEDS - 1: a size test's inputs, one per seed */
    MAX_SIZE_TEST_SEEDS = 5,
    RUN_REFUSAL_RIGHT = 5, /* does matmul compute the sizes it accepts */
    RUN_COPIES = 6,        /* the check build, asked what matmul copied */
    RUN_CHECK = 7,         /* the check build, for the structural tests */
    RUN_MMA_PROBE = 8,     /* the check build with the tensor-core products doubled (the check run's inputs) */
};

static uint64_t run_seed(int n, unsigned purpose)
{
    return grading.seed_base * 1000003u + (uint64_t)n * 8 + purpose;
}

/* Runs the check build of a variant at n, its counts written to
 * counts_path, in the scratch folder (the one place the student's process
 * may write: it may run as another user, see student_run.c).  The log is
 * "<variant>-n<n><log_label>.log".  Every access goes through a hook, so
 * the run may take much longer than a plain one; the limit is returned in
 * *timeout, the seed in *seed. */
static void run_check_build(const char *variant, int n, enum run_purpose purpose, const char *log_label,
                            char *counts_path, size_t len, uint64_t *seed, double *timeout, student_result *r)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/%s-n%d%s.log", grading.out_dir, variant, n, log_label);
    snprintf(counts_path, len, "%s/scratch/%s-n%d%s.%s", grading.out_dir, variant, n,
             purpose == RUN_MMA_PROBE ? "-mma-probe" : "", purpose == RUN_COPIES ? "copies" : "counts");
    unlink(counts_path);
    setenv("SIM_CHECK_OUT", counts_path, 1);
    *seed = run_seed(n, purpose == RUN_MMA_PROBE ? RUN_CHECK : purpose);
    *timeout = grading_timeout(n, 1) * 10;
    run_submission(variant, n, seed, 1, *timeout, log, r);
    unsetenv("SIM_CHECK_OUT");
}

double grading_timeout(int n, int seeds)
{
    /* Generous for the simulator (about 20 ns per inner-loop step) plus a
     * fixed start-up allowance (a GPU context, the reference). */
    double steps = (double)n * n * n * seeds;
    return (10.0 + 2e-8 * steps) * grading.timeout_scale;
}

void grading_record_pass(const char *test, const char *summary)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/passed.tsv", grading.out_dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    ck_assert_msg(fd >= 0, "grader: cannot write %s", path);
    char line[1024];
    int len = snprintf(line, sizeof line, "%s\t%s\n", test, summary);
    ck_assert_msg(write(fd, line, (size_t)len) == len, "grader: cannot write %s", path);
    close(fd);
}

/* The last lines the student's program printed, for context in a failure. */
static void tail_lines(const char *log, int lines, char *out, size_t len)
{
    size_t end = strlen(log);
    while (end > 0 && (log[end - 1] == '\n' || log[end - 1] == ' '))
        end--;
    size_t start = end;
    int seen = 0;
    while (start > 0) {
        if (log[start - 1] == '\n' && ++seen == lines)
            break;
        start--;
    }
    snprintf(out, len, "%.*s", (int)(end - start), log + start);
}

static void explain_failed_run(char *msg, size_t len, const student_result *r, int n, double timeout)
{
    char log[1024], note[256];
    tail_lines(r->log_tail, 3, log, sizeof log);
    if (r->not_started && !r->build_missing)
        snprintf(msg, len, "n=%d: not graded: the grader could not start the program (%s), which is the machine's "
                 "doing, not the code's (a kit error)", n, r->start_error);
    else if (r->after_hang)
        snprintf(msg, len, "n=%d: not run: an earlier test of this stage hung at this size or a smaller one (%s); "
                 "larger runs would too, so they fail at once instead of each waiting out its time limit", n,
                 r->detail);
    else if (r->timed_out)
        snprintf(msg, len,
                 "n=%d: no result after %.0f s (the limit: %.0f s, longer while blocks keep finishing), so the run "
                 "was stopped. The kernel seems not to finish: an endless loop, or threads waiting at a "
                 "__syncthreads() that others never reach?%s%s",
                 n, r->seconds, timeout, *log ? "\nLast output:\n" : "", log);
    else if (r->cuda_status)
        snprintf(msg, len, "n=%d: %s%s%s", n, r->detail, *log ? "\n" : "", log);
    else if (r->signal == SIGABRT && strstr(log, "Assertion `"))
        /* assert() in a kernel: the simulator's abort() is a GPU's
         * cudaErrorAssert; both stop the run, and the assertion says why. */
        snprintf(msg, len, "n=%d: an assert() failed, which ends the program on the simulator (on a GPU it ends the "
                 "kernel: cudaErrorAssert, \"device-side assert triggered\")\n%s", n, log);
    else if (r->signal)
        snprintf(msg, len, "n=%d: the program was killed by signal %d (%s) before it returned a result%s%s%s", n,
                 r->signal, strsignal(r->signal), *log ? "\n" : "", log, student_memory_note(r, note, sizeof note));
    else if (r->build_missing)
        snprintf(msg, len, "n=%d: this build of matmul.cu does not exist: it did not compile (see the compiler's "
                 "messages above), or, for a structural test, clang++ is missing (make deps installs it)", n);
    else
        snprintf(msg, len,
                 "n=%d: the program ended (exit status %d) before it returned every result: does matmul "
                 "call exit() or abort()?%s%s%s",
                 n, r->exit_code, *log ? "\n" : "", log, student_memory_note(r, note, sizeof note));
}

/* Where the NaNs in a wrong C came from, by their bits (nan_patterns.h). */
static const char *nan_hint(const float *got, size_t count, char *buf, size_t len)
{
    size_t unwritten = 0, from_shared = 0, other = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &got[i], sizeof bits);
        if (bits == NAN_UNWRITTEN_C_BITS)
            unwritten++;
        else if ((bits & 0x7FFFFFFFu) == NAN_NEW_SHARED_MEMORY_BITS)
            from_shared++;
        else if (!isfinite(got[i]))
            other++;
    }
    buf[0] = '\0';
    size_t used = 0;
    if (unwritten == count)
        return " C is all NaN, the NaN the kit fills C with before calling matmul: no element was written, or each "
               "was computed from C's own unwritten value (C read before it is written, as in C[i] += ... or "
               "beta * C[i]).";
    if (from_shared)
        used += (size_t)snprintf(buf + used, len - used,
                                 " %zu elements hold the NaN the simulator fills new shared memory with: they were "
                                 "computed from shared memory no thread had written yet. A __syncthreads() missing "
                                 "between the stores and the loads, or an index past what was stored? (make check "
                                 "names the line)", from_shared);
    if (unwritten && used < len)
        used += (size_t)snprintf(buf + used, len - used,
                                 " %zu elements were never written (still the NaN the kit fills C with), or were "
                                 "computed from that NaN: does the grid cover the whole matrix, edges included, and "
                                 "is C written before it is read?", unwritten);
    if (other && used < len)
        snprintf(buf + used, len - used, " %zu elements are NaN or infinite.", other);
    return buf;
}

static void explain_mismatch(char *msg, size_t len, int n, uint64_t seed, const lab_comparison *c, const float *got)
{
    int written = snprintf(msg, len,
                           "n=%d, seed %llu: %ld of %ld elements wrong; first at (row %d, col %d): got %.6g, "
                           "expected %.6g.",
                           n, (unsigned long long)seed, c->mismatches, c->checked, c->first_row, c->first_col,
                           isnan(c->first_got) ? NAN : c->first_got, c->first_ref); /* "nan", never "-nan" */
    char hint[512] = "";
    const char *why = c->not_finite > 0 ? nan_hint(got, (size_t)n * n, hint, sizeof hint) : "";
    snprintf(msg + written, len - (size_t)written, "%s", why);
}

/* The inputs must come back as they went in, bit for bit: a kernel that
 * rearranges A or B in place (or scribbles on them) and then computes has
 * not done the product it was asked for.  Returns 1 with a message when
 * one changed. */
static int inputs_changed(char *msg, size_t len, int n, uint64_t seed, const float *A, const float *B,
                          const float *A_after, const float *B_after)
{
    const char *name[2] = {"A", "B"};
    const float *was[2] = {A, B}, *now[2] = {A_after, B_after};
    size_t count = (size_t)n * n;
    for (int m = 0; m < 2; m++) {
        if (memcmp(was[m], now[m], count * sizeof(float)) == 0)
            continue;
        size_t changed = 0, first = count;
        for (size_t i = 0; i < count; i++)
            if (memcmp(&was[m][i], &now[m][i], sizeof(float)) != 0) {
                if (first == count)
                    first = i;
                changed++;
            }
        snprintf(msg, len,
                 "n=%d (seed %llu): matmul changed its input %s: %zu of %zu elements differ after it ran, the first "
                 "at (%zu, %zu): was %.7g, now %.7g. A kernel reads A and B and writes only C; use shared memory "
                 "or registers for any rearranging.",
                 n, (unsigned long long)seed, name[m], changed, count, first / (size_t)n, first % (size_t)n,
                 was[m][first], now[m][first]);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- where C came from */

/* What matmul moved while it ran (matmul_ledger) in its *calls calls, from
 * the check build of the same submission at size n (the simulator, on every
 * backend), kept in a file so each size asks once.  Returns 1 with the
 * ledger, or 0 when the check run could not say (it failed or reported
 * nothing): then nothing is held against the result, and the structural
 * tests say what went wrong. */
static int check_run_ledger(const char *check_variant, int n, matmul_ledger *moved, unsigned long long *calls)
{
    char cache[4096];
    snprintf(cache, sizeof cache, "%s/copies-%s-n%d.txt", grading.out_dir, check_variant, n);
    FILE *f = fopen(cache, "r");
    if (f) {
        int known = 0;
        unsigned long long to_host, from_host, host_launches;
        int fields = fscanf(f, "%d %llu %llu %llu %llu", &known, &to_host, &from_host, &host_launches, calls);
        fclose(f);
        if (fields == 5) {
            *moved = (matmul_ledger){to_host, from_host, host_launches};
            return known;
        }
    }
    char counts_path[4096];
    uint64_t seed;
    double timeout;
    student_result r;
    run_check_build(check_variant, n, RUN_COPIES, " for the copies", counts_path, sizeof counts_path, &seed, &timeout,
                    &r);
    int known = r.ok && r.ledger;
    *moved = r.moved;
    *calls = (unsigned long long)r.ledger_calls;
    student_result_free(&r);
    f = fopen(cache, "w");
    if (f) {
        fprintf(f, "%d %llu %llu %llu %llu\n", known, (unsigned long long)moved->copied_to_host,
                (unsigned long long)moved->copied_from_host, (unsigned long long)moved->host_pointer_launches, *calls);
        fclose(f);
    }
    return known;
}

/* A result counts only if matmul's kernels made it: no more than a few
 * numbers copied to the host (where A and B could be multiplied) or from it
 * (where a product made there could come in) while matmul ran, and
 * no kernel given host memory to carry them there.  The simulator's ledger
 * says so for the run itself.  A GPU build's ledger sees only the runtime
 * calls it wraps (no launch's pointers), so the check build of the same
 * matmul.cu is asked as well, at the same size up to 100, where it is
 * quick; with no ledger at all, only it is asked.
 * GRADE_LEDGER_FROM_CHECK=1 asks only it, as if the run kept no ledger,
 * for the kit's tests of that way. */
static int computed_on_device(const student_result *r, const char *variant, int n, char *msg, size_t len)
{
    const char *force = getenv("GRADE_LEDGER_FROM_CHECK");
    int own = force && *force == '1' ? LEDGER_NONE : r->ledger;
    if (own != LEDGER_NONE && !ledger_says_device_computed(&r->moved, (unsigned long long)r->ledger_calls, n, msg, len))
        return 0;
    if (own == LEDGER_SIMULATOR)
        return 1;
    char check_variant[128];
    check_variant_of(variant, check_variant, sizeof check_variant);
    int at = n < 100 ? n : 100;
    matmul_ledger moved;
    unsigned long long calls = 0;
    if (!check_run_ledger(check_variant, at, &moved, &calls))
        return 1;
    if (ledger_says_device_computed(&moved, calls, at, msg, len))
        return 1;
    size_t used = strlen(msg);
    snprintf(msg + used, len - used, " (counted by the simulator, which ran the same matmul.cu at n=%d)", at);
    return 0;
}

START_TEST(test_size)
{
    int n = size_tests[_i].n, nseeds = size_tests[_i].seeds;
    const char *test = size_tests[_i].name;
    uint64_t *seeds = malloc((size_t)nseeds * sizeof *seeds);
    ck_assert_msg(seeds != NULL, "grader: out of memory");
    for (int s = 0; s < nseeds; s++)
        seeds[s] = run_seed(n, (unsigned)s);
    char log[4096];
    snprintf(log, sizeof log, "%s/%s.log", grading.out_dir, test);
    double timeout = grading_timeout(n, nseeds);

    student_result r;
    size_t optin = size_tests[_i].shared_optin;
    if (optin) {
        char bytes[32];
        snprintf(bytes, sizeof bytes, "%zu", optin);
        setenv("LAB_SHARED_PER_BLOCK_OPTIN", bytes, 1);
    }
    run_submission(size_tests[_i].variant, n, seeds, nseeds, timeout, log, &r);
    unsetenv("LAB_SHARED_PER_BLOCK_OPTIN");
    char msg[2048];
    /* A failure on the smaller device says which device it was, and how to
     * see the same run with check mode's findings on the simulator. */
    char device[512] = "";
    if (optin)
        snprintf(device, sizeof device,
                 "on a GPU that offers a block %zu bytes of shared memory (sharedMemPerBlockOptin; to see this run "
                 "with check mode's findings: LAB_SHARED_PER_BLOCK_OPTIN=%zu make -C labs/%s check N=%d "
                 "BACKEND=sim): ",
                 optin, optin, grading.stage, n);
    if (!r.ok) {
        explain_failed_run(msg, sizeof msg, &r, n, timeout);
        if (optin && r.cuda_status)
            ck_abort_msg("%s%s.  Ask the device what it offers before choosing a shape that needs more "
                         "(lesson 08, \"Asking the device\"; cudaFuncSetAttribute refuses more than it offers)",
                         device, msg);
        ck_abort_msg("%s%s", device, msg);
    }
    char why[1024];
    if (!computed_on_device(&r, size_tests[_i].variant, n, why, sizeof why))
        ck_abort_msg("n=%d: %s", n, why);
    size_t count = (size_t)n * n;
    float *A = malloc(count * sizeof *A), *B = malloc(count * sizeof *B), *ref = malloc(count * sizeof *ref);
    ck_assert_msg(A && B && ref, "grader: out of memory for n=%d", n);
    double max_error = 0;
    for (int s = 0; s < nseeds; s++) {
        lab_make_inputs(A, B, n, seeds[s]);
        if (inputs_changed(msg, sizeof msg, n, seeds[s], A, B, r.A_after + (size_t)s * count,
                           r.B_after + (size_t)s * count))
            ck_abort_msg("%s", msg);
        lab_comparison c;
        if (!lab_check_rows(A, B, r.C + (size_t)s * count, ref, stage_precision(), n, 0, n, NULL, 0, &c)) {
            explain_mismatch(msg, sizeof msg, n, seeds[s], &c, r.C + (size_t)s * count);
            ck_abort_msg("%s%s", device, msg);
        }
        max_error = fmax(max_error, c.max_error);
    }
    free(A);
    free(B);
    free(ref);
    student_result_free(&r);
    free(seeds);
    char summary[160];
    snprintf(summary, sizeof summary, "%s, %d random input%s: correct (max error %.1e)", test, nseeds, nseeds == 1 ? "" : "s",
             max_error);
    grading_record_pass(test, summary);
}
END_TEST

int grading_listing;

TCase *grading_tcase(const char *name, enum test_runs runs, const char *variant)
{
    if (grading_listing == LIST_TESTS)
        printf("%s\t%s\n", grading.stage, name);
    if (grading_listing == LIST_BUILDS) {
        char folder[160] = "", check[160] = "";
        if (runs != RUNS_NO_BUILD)
            build_folder(variant, folder, sizeof folder);
        /* Off the simulator a size test's ledger comes from the check build
         * of the same variant too (computed_on_device). */
        if (runs == RUNS_SIZE_TEST && !grading.on_simulator) {
            char check_variant[128];
            check_variant_of(variant, check_variant, sizeof check_variant);
            build_folder(check_variant, check, sizeof check);
        }
        printf("%s\t%s%s%s\n", name, folder, *check ? " " : "", check);
    }
    return tcase_create(name);
}

void *grading_grow(void *items, int *capacity, int count, size_t size)
{
    if (count < *capacity)
        return items;
    int more = *capacity ? 2 * *capacity : 16;
    void *bigger = realloc(items, (size_t)more * size);
    if (!bigger) {
        fprintf(stderr, "grade_suite: out of memory for stage %s's tests\n", grading.stage);
        exit(2);
    }
    *capacity = more;
    return bigger;
}

_Static_assert((int)small_size_seeds <= (int)MAX_SIZE_TEST_SEEDS && (int)large_size_seeds <= (int)MAX_SIZE_TEST_SEEDS,
               "a size test has a slot for each of its inputs");

/* One size test: n, under the build variant (NULL: the plain build), on
 * the device as it is (shared_optin 0) or a smaller one; named `name`, or
 * after its variant and n when that is NULL. */
static void add_size_test(Suite *s, const char *variant, int n, size_t shared_optin, const char *name)
{
    size_tests = grading_grow(size_tests, &size_test_capacity, size_test_count, sizeof *size_tests);
    int slot = size_test_count++;
    size_tests[slot].n = n;
    size_tests[slot].seeds = n >= large_size ? large_size_seeds : small_size_seeds;
    size_tests[slot].variant = variant;
    size_tests[slot].shared_optin = shared_optin;
    if (name)
        snprintf(size_tests[slot].name, sizeof size_tests[slot].name, "%s", name);
    else if (variant)
        snprintf(size_tests[slot].name, sizeof size_tests[slot].name, "%s n=%d", variant, n);
    else
        snprintf(size_tests[slot].name, sizeof size_tests[slot].name, "n=%d", n);
    TCase *tc = grading_tcase(size_tests[slot].name, RUNS_SIZE_TEST, variant);
    /* Check's own limit is the backstop; the test stops the student's
     * process itself, a little sooner, so it can say why. */
    tcase_set_timeout(tc, student_run_longest(grading_timeout(n, size_tests[slot].seeds)) + 30);
    tcase_add_loop_test(tc, test_size, slot, slot + 1);
    suite_add_tcase(s, tc);
}

void grading_add_size_tests_from_table(Suite *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/suites/%s.points.tsv", GRADER_DIR, grading.stage);
    FILE *table = fopen(path, "r");
    if (!table) {
        fprintf(stderr, "grade_suite: kit error: cannot read %s, stage %s's points table: %s\n", path, grading.stage,
                strerror(errno));
        exit(2);
    }
    char *line = NULL;
    size_t capacity = 0;
    int row = 0;
    while (getline(&line, &capacity, table) >= 0) {
        row++;
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        /* "n=N" or "VARIANT n=N": a first word without spaces, at most. */
        char *space = strchr(line, ' ');
        const char *size = space ? space + 1 : line;
        if (strncmp(size, "n=", 2) != 0 || strchr(size, ' '))
            continue;
        int n;
        char why[256];
        if (!lab_parse_size(size + 2, &n, why, sizeof why)) {
            fprintf(stderr, "grade_suite: kit error: %s, line %d: test \"%s\": %s\n", path, row, line, why);
            exit(2);
        }
        const char *variant = NULL;
        if (space) {
            *space = '\0';
            variant = strdup(line);
            if (!variant) {
                fprintf(stderr, "grade_suite: out of memory for stage %s's tests\n", grading.stage);
                exit(2);
            }
        }
        add_size_test(s, variant, n, 0, NULL);
    }
    free(line);
    fclose(table);
}

/* C of one run against the reference for the inputs of `seed`, under the
 * stage's precision: 1 when every element matches, else 0 with what
 * differed in *c. */
static int matches_reference(const float *C, int n, uint64_t seed, lab_comparison *c)
{
    size_t count = (size_t)n * n;
    float *A = malloc(count * sizeof *A), *B = malloc(count * sizeof *B), *ref = malloc(count * sizeof *ref);
    ck_assert_msg(A && B && ref, "grader: out of memory for n=%d", n);
    lab_make_inputs(A, B, n, seed);
    int right = lab_check_rows(A, B, C, ref, stage_precision(), n, 0, n, NULL, 0, c);
    free(A);
    free(B);
    free(ref);
    return right;
}

/* ---------------------------------------------------------------- refused launch */

static int *refused_sizes, refused_count, refused_capacity;

/* One run of the submission at n, checked against the reference: 1 when
 * right, else 0 with the reason in why. */
static int computes_correctly(int n, char *why, size_t len)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/n=%d for the refusal.log", grading.out_dir, n);
    uint64_t seed = run_seed(n, RUN_REFUSAL_RIGHT);
    double timeout = grading_timeout(n, 1);
    student_result r;
    run_submission(NULL, n, &seed, 1, timeout, log, &r);
    if (!r.ok) {
        explain_failed_run(why, len, &r, n, timeout);
        student_result_free(&r);
        return 0;
    }
    lab_comparison c;
    int right = matches_reference(r.C, n, seed, &c);
    if (!right)
        explain_mismatch(why, len, n, seed, &c, r.C);
    student_result_free(&r);
    return right;
}

START_TEST(test_refused)
{
    int n = refused_sizes[_i];
    char test[48], log[4096];
    snprintf(test, sizeof test, "n=%d refused", n);
    snprintf(log, sizeof log, "%s/%s.log", grading.out_dir, test);
    uint64_t seed = run_seed(n, 0); /* a size test's first inputs */
    double timeout = grading_timeout(n, 1);
    student_result r;
    run_submission(NULL, n, &seed, 1, timeout, log, &r);
    char msg[2048];
    if (r.ok) {
        /* Refused by the host code: matmul declined before launching and
         * left C as lab_exec handed it over, every byte 0xFF (a NaN).  Any
         * element written is a wrong or partial answer. */
        size_t count = (size_t)n * n, written = 0;
        for (size_t i = 0; i < count; i++) {
            uint32_t bits;
            memcpy(&bits, &r.C[i], sizeof bits);
            written += bits != 0xFFFFFFFFu;
        }
        student_result_free(&r);
        if (written == 0) {
            /* Declining is a refusal only from a matmul that computes the
             * sizes one block holds: one that writes nothing at all (an
             * untouched skeleton) refuses nothing. */
            char why[1024];
            if (!computes_correctly(n - 1, why, sizeof why))
                ck_abort_msg("n=%d: C was left unwritten, but n=%d is not computed right either (%s): leaving C "
                             "unwritten counts as refusing only from a matmul that computes every n up to 32",
                             n, n - 1, why);
            char summary[200];
            snprintf(summary, sizeof summary, "n=%d: refused by matmul itself (C left unwritten, n=%d computed), "
                     "no wrong answer", n, n - 1);
            grading_record_pass(test, summary);
            return;
        }
        ck_abort_msg("n=%d: matmul returned a result (%zu of %zu elements of C written), but %d x %d = %d threads "
                     "cannot be one block (at most 1024): refuse it, either by launching the one block and letting "
                     "CUDA answer cudaErrorInvalidConfiguration, or in matmul before any launch, leaving C unwritten",
                     n, written, count, n, n, n * n);
    }
    /* The simulator says cudaErrorInvalidConfiguration; the CUDA 13 runtime
     * on an H100 answered cudaErrorInvalidValue for such a block.  Either is
     * CUDA refusing the launch, which is what this test asks for. */
    if (r.cuda_status != 9 /* cudaErrorInvalidConfiguration */ && r.cuda_status != 1 /* cudaErrorInvalidValue */) {
        explain_failed_run(msg, sizeof msg, &r, n, timeout);
        ck_abort_msg("%s\n(expected: the launch refused by CUDA as an invalid configuration)", msg);
    }
    student_result_free(&r);
    char summary[200];
    snprintf(summary, sizeof summary, "n=%d: the launch was refused (%s), no wrong answer", n,
             r.cuda_status == 9 ? "cudaErrorInvalidConfiguration" : "cudaErrorInvalidValue");
    grading_record_pass(test, summary);
}
END_TEST

void grading_add_small_device_test(Suite *s, const char *name, int n, size_t shared_optin)
{
    add_size_test(s, NULL, n, shared_optin, name);
}

void grading_add_refused_test(Suite *s, int n)
{
    refused_sizes = grading_grow(refused_sizes, &refused_capacity, refused_count, sizeof *refused_sizes);
    int slot = refused_count++;
    refused_sizes[slot] = n;
    char *name = malloc(48);
    snprintf(name, 48, "n=%d refused", n);
    TCase *tc = grading_tcase(name, RUNS_BUILD, NULL);
    /* Two runs: n itself, and n - 1 when matmul declined n. */
    tcase_set_timeout(tc, student_run_longest(grading_timeout(n, 1)) * 2 + 30);
    tcase_add_loop_test(tc, test_refused, slot, slot + 1);
    suite_add_tcase(s, tc);
}

/* ---------------------------------------------------------------- check mode */

/* One launch line of the check build's report, added into c: every
 * counter of common/check_counters.h, summed or kept at its largest as
 * that list says.  A counter missing from the line is the kit's bug (the
 * simulator and the grader disagree), said as such. */
static void add_counts(check_counts *c, const char *line)
{
    enum { SUM, MAX };
    static const struct {
        const char *key;
        size_t offset;
        int merge;
    } fields[] = {
#define COUNT_FIELD(name, how, meaning) {#name, offsetof(check_counts, name), how},
        CHECK_COUNTERS(COUNT_FIELD)
#undef COUNT_FIELD
    };
    c->launches++;
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        char key[64];
        snprintf(key, sizeof key, " %s=", fields[f].key);
        const char *at = strstr(line, key);
        ck_assert_msg(at != NULL, "grader: the check build's launch line has no %s (the kit's simulator and grader "
                      "disagree; this is not the student's code)", fields[f].key);
        unsigned long long v = strtoull(at + strlen(key), NULL, 10);
        unsigned long long *slot = (unsigned long long *)((char *)c + fields[f].offset);
        if (fields[f].merge == MAX)
            *slot = *slot > v ? *slot : v;
        else
            *slot += v;
    }
}

/* One run of the check build at size n, measured: 1, or 0 with why no
 * structural test can credit it in msg (a failed run, no launch, a product
 * made on the host, host memory reached, blocks racing). */
static int measure_check(const char *variant, int n, check_counts *out, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof *out);
    char counts_path[4096];
    uint64_t seed;
    double timeout;
    student_result r;
    run_check_build(variant, n, RUN_CHECK, "", counts_path, sizeof counts_path, &seed, &timeout, &r);
    if (!r.ok) {
        explain_failed_run(msg, msg_len, &r, n, timeout);
        student_result_free(&r);
        return 0;
    }
    lab_comparison c;
    /* A wrong C does not end the check here: what the run counted (hazards
     * above all) often says why it is wrong.  The structural test judges
     * its rule first, then asks that the product was computed (most of C
     * right). */
    out->elements = (long)n * n;
    if (!matches_reference(r.C, n, seed, &c)) {
        explain_mismatch(out->wrong_result, sizeof out->wrong_result, n, seed, &c, r.C);
        out->wrong_elements = c.mismatches;
    }
    student_result_free(&r);
    FILE *f = fopen(counts_path, "r");
    if (!f) {
        snprintf(msg, msg_len, "n=%d: the check build reported no kernel launch (did matmul launch a kernel?)", n);
        return 0;
    }
    char line[4096];
    size_t used = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long to_host, from_host, host_launches;
        if (!strncmp(line, "launch=", 7)) {
            add_counts(out, line);
        } else if (sscanf(line, "matmul copied_to_host=%llu copied_from_host=%llu host_pointer_launches=%llu", &to_host,
                          &from_host, &host_launches) == 3) {
            out->copy_reports++;
            out->moved.copied_to_host += to_host;
            out->moved.copied_from_host += from_host;
            out->moved.host_pointer_launches += host_launches;
        } else if (!strncmp(line, "finding ", 8) && used + 1 < sizeof out->findings) {
            const char *text = strstr(line, " kind=");
            text = text ? strchr(text + 1, ' ') : NULL;
            used += (size_t)snprintf(out->findings + used, sizeof out->findings - used, "%s", text ? text + 1 : line);
        }
    }
    fclose(f);
    char why[1024];
    if (out->copy_reports && !ledger_says_device_computed(&out->moved, out->copy_reports, n, why, sizeof why)) {
        snprintf(msg, msg_len, "n=%d: %s", n, why);
        return 0;
    }
    /* Host memory a kernel reached through a pointer it was not given (one
     * inside a structure, say) escapes the ledger, not these counts: no
     * structural test credits such a kernel. */
    if (out->host_accesses) {
        snprintf(msg, msg_len, "n=%d: the kernels made %llu accesses to host memory (the check report names the line): "
                     "kernels read A and B and write C in device memory, through the pointers matmul was given%s%s",
                 n, out->host_accesses, out->findings[0] ? "\nThe check report says:\n" : "", out->findings);
        return 0;
    }
    /* Blocks that race for a word (C[i] += partial from several blocks, say)
     * come out right here when the simulator happens to run them one after
     * another: the result is not the kernel's to count on, and no
     * structural test credits it. */
    if (out->block_races) {
        snprintf(msg, msg_len, "n=%d: blocks of one launch race for global memory (%llu reads or atomic updates of a word "
                     "another block had stored, nothing ordering the two): on a GPU blocks run in no set order and "
                     "updates are lost, however right the simulator's result (it ran them one after another)%s%s",
                 n, out->block_races, out->findings[0] ? "\nThe check report says:\n" : "", out->findings);
        return 0;
    }
    if (out->launches == 0) {
        snprintf(msg, msg_len, "n=%d: the check build reported no kernel launch (did matmul launch a kernel?)%s", n,
                 out->moved.copied_from_host ? " C was filled by a copy from the host, not by a kernel: compute it on the device" : "");
        return 0;
    }
    return 1;
}

/* A stage's structural tests judge the same check run by different rules
 * (five of stage 08's look at n = 256): it is made once per build and size
 * in a grade, and what it measured (or why it cannot be credited) kept in
 * the stage's folder, which each grade starts empty (beside the copies'
 * record above, not in scratch/: the student's programs may write there).
 * Each test runs in a process of its own, so the record is a file, written
 * whole or not at all. */
struct check_record {
    char magic[8];
    int ok;
    check_counts counts;
    char msg[4096];
};

void grading_run_check(const char *variant, int n, check_counts *out)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/check-run-%s-n%d.record", grading.out_dir, variant, n);
    static struct check_record rec;
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        ssize_t got = read(fd, &rec, sizeof rec);
        close(fd);
        if (got == (ssize_t)sizeof rec && !memcmp(rec.magic, "checkrun", 8)) {
            *out = rec.counts;
            if (!rec.ok)
                ck_abort_msg("%s", rec.msg);
            return;
        }
    }
    memset(&rec, 0, sizeof rec);
    memcpy(rec.magic, "checkrun", 8);
    rec.ok = measure_check(variant, n, &rec.counts, rec.msg, sizeof rec.msg);
    snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, &rec, sizeof rec) == (ssize_t)sizeof rec)
            rename(tmp, path);
        close(fd);
        unlink(tmp);
    }
    *out = rec.counts;
    if (!rec.ok)
        ck_abort_msg("%s", rec.msg);
}

/* The tensor-core probe: the check build run with every product mma_sync
 * adds doubled (SIM_MMA_PRODUCT_SCALE, common/sim/warp_mma.cpp).  A C that
 * mma_sync made comes out exactly twice the product, so half of it passes
 * the stage's comparison wherever the plain run's C did; elements made
 * otherwise (FP32 multiply-adds, with mma_sync calls beside them to be
 * counted) do not double.  So the probe fails when more elements are wrong
 * than the plain run's `wrong_before`: a kernel whose edge is wrong keeps
 * these points, as it keeps every structural test's (structure.c). */
int grading_mma_probe(const char *variant, int n, long wrong_before, char *msg, size_t len)
{
    char counts_path[4096];
    uint64_t seed;
    double timeout;
    student_result r;
    setenv("SIM_MMA_PRODUCT_SCALE", "2", 1);
    run_check_build(variant, n, RUN_MMA_PROBE, " for the tensor-core probe", counts_path, sizeof counts_path, &seed,
                    &timeout, &r);
    unsetenv("SIM_MMA_PRODUCT_SCALE");
    if (!r.ok) {
        explain_failed_run(msg, len, &r, n, timeout);
        student_result_free(&r);
        return 0;
    }
    for (size_t i = 0; i < (size_t)n * n; i++)
        r.C[i] /= 2; /* exact: a power of two */
    lab_comparison c;
    int doubled = matches_reference(r.C, n, seed, &c) || c.mismatches <= wrong_before;
    if (!doubled)
        snprintf(msg, len,
                 "with every product mma_sync adds doubled (the grader's probe), C did not double: %ld of %ld "
                 "elements are not twice the product (%ld were wrong without the probe), the first at (row %d, "
                 "col %d), half of it %.6g where the product is %.6g.  Those elements were computed some other "
                 "way than by mma_sync's products (FP32 multiply-adds?): in this stage every product goes "
                 "through the tensor cores (wmma::mma_sync in stage 09, mma_m16n8k8_tf32 in stage 10)",
                 c.mismatches, c.checked, wrong_before, c.first_row, c.first_col, c.first_got, c.first_ref);
    student_result_free(&r);
    return doubled;
}
