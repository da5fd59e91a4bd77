/* grade_suite: runs one stage's Check suite against one build of a
 * student's lab, in fork mode, and writes what each test concluded.
 *
 *   grade_suite STAGE LAB_EXEC OUT_DIR      (env: GRADE_SEED, GRADE_TIMEOUT_SCALE, GRADE_BACKEND)
 *   grade_suite --list | --builds STAGE     the tests (below, list_tests)
 *   grade_suite --confinement               "landlock N" when students' programs
 *                                           can be confined to their folders, else "none"
 *   grade_suite --runs-as DIR               "unprivileged" when programs built below DIR
 *                                           run with nobody's rights (each stage as a user
 *                                           id of its own), else "grader" (the grader's user)
 *
 * OUT_DIR/results.tsv gets one line per test: name, pass|fail, message.  A
 * test passes only if Check says so AND the test recorded that it ran to
 * its end (grading_record_pass). */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grading.h"
#include "harness.h"
#include "stage_suites.h"
#include "student_run.h"

static char *read_passed(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

/* The summary a passing test recorded, or NULL when it recorded none. */
static const char *passed_summary(const char *passed, const char *test, char *out, size_t len)
{
    size_t tlen = strlen(test);
    for (const char *line = passed; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if ((size_t)(end - line) > tlen && !strncmp(line, test, tlen) && line[tlen] == '\t') {
            snprintf(out, len, "%.*s", (int)(end - line - tlen - 1), line + tlen + 1);
            return out;
        }
        line = *end ? end + 1 : end;
    }
    return NULL;
}

/* Messages go on one TSV line, already escaped as JSON strings are: the
 * grade script copies them into results.json as they are. */
static void write_field(FILE *f, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("    ", f);
        else if (*p == '\\')
            fputs("\\\\", f);
        else if (*p == '"')
            fputs("\\\"", f);
        else if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F)
            fputc('?', f); /* student output may hold anything; keep the file plain ASCII */
        else
            fputc(*p, f);
    }
}

/* grade.sh names the backend (GRADE_BACKEND): on the simulator its programs
 * write only in their scratch folders (grading.c, run_submission), and a
 * size test's ledger is the run's own (grading.c, computed_on_device). */
static int backend_is_simulator(void)
{
    const char *backend = getenv("GRADE_BACKEND");
    return backend && !strcmp(backend, "sim");
}

/* grade_suite --list: every stage's graded tests, "stage<TAB>test", as the
 * suites declare them (the build checks them against the stages' points
 * tables, grader/suites/<stage>.points.tsv).
 * grade_suite --builds STAGE: STAGE's tests, "test<TAB>folders", the build
 * folders each runs under GRADE_BACKEND (grade.sh makes only the builds the
 * tests it runs alone need: GRADE_CASES). */
static int list_tests(int mode, const char *only)
{
    static char answer_key[4096];
    const char *keys = getenv("GRADE_ANSWER_KEYS");
    grading_listing = mode;
    grading.on_simulator = backend_is_simulator();
    grading.out_dir = "/nonexistent";
    grading.timeout_scale = 1.0;
    grading.answer_key = answer_key;
    int found = 0;
    for (size_t i = 0; stage_name(i); i++) {
        grading.stage = stage_name(i);
        if (only && strcmp(only, grading.stage))
            continue;
        found = 1;
        snprintf(answer_key, sizeof answer_key, "%s/%s.tsv", keys && *keys ? keys : GRADER_DIR "/answers",
                 grading.stage);
        /* A process per stage, as in grading: the suites' tables are per
         * process, sized for one stage. */
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            srunner_free(srunner_create(stage_suite(grading.stage)));
            fflush(stdout);
            _exit(0);
        }
        int status = 1;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            return 2;
    }
    if (!found) {
        fprintf(stderr, "grade_suite: %s is not a stage\n", only);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list"))
        return list_tests(LIST_TESTS, NULL);
    if (argc == 3 && !strcmp(argv[1], "--builds"))
        return list_tests(LIST_BUILDS, argv[2]);
    if (argc == 2 && !strcmp(argv[1], "--confinement")) {
        int abi = student_run_landlock_abi();
        if (abi)
            printf("landlock %d\n", abi);
        else
            printf("none\n");
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--runs-as")) {
        printf("%s\n", student_run_as_nobody(argv[2]) ? "unprivileged" : "grader");
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s STAGE LAB_EXEC OUT_DIR | --list | --builds STAGE | --confinement | --runs-as DIR\n",
                argv[0]);
        return 2;
    }
    /* The device every test runs on is the device as it is, but for the
     * small-device test, which sets this for its own run (grading.c): a
     * value left in the grader's environment would shrink every test's. */
    unsetenv("LAB_SHARED_PER_BLOCK_OPTIN");
    grading.on_simulator = backend_is_simulator();
    grading.stage = argv[1];
    grading.lab_exec = argv[2];
    grading.out_dir = argv[3];
    unsigned long seed = 1;
    const char *env_seed = getenv("GRADE_SEED");
    if (env_seed && *env_seed && !lab_parse_uint(env_seed, &seed)) {
        fprintf(stderr, "grade_suite: GRADE_SEED=%s is not a whole number\n", env_seed);
        return 2;
    }
    grading.seed_base = seed;
    const char *scale = getenv("GRADE_TIMEOUT_SCALE");
    grading.timeout_scale = scale && atof(scale) > 0 ? atof(scale) : 1.0;
    /* The student's answers sit beside their matmul.cu in the fresh tree;
     * the key is the grader's own (never in a student handout). */
    static char answers[4096], answer_key[4096];
    snprintf(answers, sizeof answers, "%s/src/answers.txt", grading.out_dir);
    const char *keys = getenv("GRADE_ANSWER_KEYS");
    snprintf(answer_key, sizeof answer_key, "%s/%s.tsv", keys && *keys ? keys : GRADER_DIR "/answers", grading.stage);
    grading.answers = answers;
    grading.answer_key = answer_key;

    Suite *suite = stage_suite(grading.stage);
    if (!suite) {
        fprintf(stderr, "grade_suite: no suite for stage %s\n", grading.stage);
        return 2;
    }
    /* A hang costs this stage's later kernel runs at once (student_run.h). */
    static char hang_path[4096];
    snprintf(hang_path, sizeof hang_path, "%s/hung", grading.out_dir);
    unlink(hang_path);
    student_run_hang_marker(hang_path);
    /* Graded as root, this stage's runs take a user id of their own. */
    student_run_user_key(getpid());
    char passed_path[4096], results_path[4096];
    snprintf(passed_path, sizeof passed_path, "%s/passed.tsv", grading.out_dir);
    snprintf(results_path, sizeof results_path, "%s/results.tsv", grading.out_dir);
    unlink(passed_path);

    SRunner *sr = srunner_create(suite);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_SILENT);

    char *passed = read_passed(passed_path);
    FILE *out = fopen(results_path, "w");
    if (!out) {
        perror(results_path);
        return 2;
    }
    int n = srunner_ntests_run(sr);
    TestResult **results = srunner_results(sr);
    for (int i = 0; i < n; i++) {
        const char *test = tr_tcname(results[i]);
        char summary[1024];
        const char *proof = passed_summary(passed, test, summary, sizeof summary);
        int pass = tr_rtype(results[i]) == CK_PASS && proof;
        const char *message = pass ? proof
                              : tr_rtype(results[i]) == CK_PASS
                                  ? "the test process ended before the test did (something called exit()), "
                                    "so nothing was proven"
                                  : tr_msg(results[i]);
        fprintf(out, "%s\t%s\t", test, pass ? "pass" : "fail");
        write_field(out, message ? message : "");
        fputc('\n', out);
    }
    fclose(out);
    free(results);
    free(passed);
    srunner_free(sr);
    return 0;
}
