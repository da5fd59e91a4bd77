/* What a stage's Check suite uses to test a student's kernel. */
#ifndef GRADING_H
#define GRADING_H

#include <check.h>
#include <stdint.h>

typedef struct {
    const char *stage;     /* "01-naive" */
    const char *lab_exec;  /* the program holding the student's code */
    const char *out_dir;   /* logs and notes of this stage's run */
    uint64_t seed_base;    /* public for students, secret for instructors */
    double timeout_scale;  /* multiplies every test's time limit */
    const char *answers;   /* the submission's answers.txt (may not exist) */
    const char *answer_key; /* grader/answers/<stage>.tsv */
} grading_context;

extern grading_context grading;

/* Adds one test case named "n=<size>" per size: the student's matmul on
 * `seeds` random inputs of that size, each compared with the reference. */
void grading_add_size_tests(Suite *s, const int *sizes, int count, int seeds);

/* The same for a build variant listed in grader/variants.tsv (e.g.
 * "TILE=16"): tests named "<variant> n=<size>". */
void grading_add_size_tests_built(Suite *s, const char *variant, const int *sizes, int count, int seeds);

/* A test named "n=<size> refused": the launch for this n must fail with
 * cudaErrorInvalidConfiguration (one block cannot hold n*n threads). */
void grading_add_refused_test(Suite *s, int n);

/* One test per question of the stage's quiz, named "quiz Q<k>": the
 * submission's answers.txt against grader/answers/<stage>.tsv. */
void grading_add_quiz_tests(Suite *s);

/* A test's last act: the proof, read by the runner, that it ran to its end
 * (a process that exits early is otherwise reported as passed by Check). */
void grading_record_pass(const char *test, const char *summary);

/* Wall-clock budget for a run of `seeds` products of size n. */
double grading_timeout(int n, int seeds);

#endif
