/* Runs the student's lab_exec in its own process, under limits, and reads
 * back what it computed. */
#ifndef STUDENT_RUN_H
#define STUDENT_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lab_exec_protocol.h"

typedef struct {
    int ok;              /* 1: every seed's result arrived */
    int timed_out;
    double seconds;      /* how long it ran (when it was stopped: for how long) */
    int after_hang;      /* not run: an earlier run of this stage hung (detail says which) */
    int signal;          /* the signal that ended lab_exec, or 0 */
    int exit_code;
    int not_started;     /* the program never ran: the errno of the step that failed, or 0 */
    int build_missing;   /* ... because there was no build to start (the student's compile error) */
    char start_error[160]; /* which step failed, and why */
    int cuda_status;     /* a CUDA error lab_exec reported, or 0 */
    char detail[256];    /* lab_exec's account of a CUDA error */
    int results;         /* how many seeds came back complete */
    float *C;            /* results * n*n floats, seed after seed */
    float *A_after;      /* the inputs as matmul left them in device memory, */
    float *B_after;      /* laid out as C */
    int ledger;          /* who kept the ledger of what matmul moved: LEDGER_... (lab_exec_protocol.h) */
    matmul_ledger moved; /* summed over the seeds */
    int ledger_calls;    /* how many of matmul's calls moved sums (each seed's, finished or not) */
    char log_tail[1024]; /* the end of what the student's code printed */
    unsigned long memory_limit_mib; /* the host memory it was allowed (RLIMIT_DATA) */
} student_result;

/* Runs `lab_exec n seeds...`, giving it timeout_s seconds in all, or
 * longer while it shows it is working (below); its stdout and stderr go to
 * log_path.  With confine set (the simulator's programs), it may write only
 * in its scratch folder (and /dev), where the kernel has Landlock.
 *
 * The time limits assume a fast machine.  On a slower one (another CPU, a
 * loaded one, the portable context switch of a non-x86 simulator) a right
 * kernel could run past them, and a grade would then depend on the machine.
 * So the simulator reports progress, a byte on a pipe each time blocks
 * finish (at most a few a second; common/sim/launch.cpp), and a run past
 * its limit goes on while blocks keep finishing: it is stopped once none
 * has for STUDENT_RUN_IDLE_S seconds, and in any case at
 * student_run_longest(timeout_s).  A kernel that spins finishes no block
 * and is stopped at its limit, as before.  A GPU reports no progress (it
 * is never that slow). */
#define STUDENT_RUN_IDLE_S 5.0
double student_run_longest(double timeout_s);
void student_run(const char *lab_exec, int n, const uint64_t *seeds, int nseeds, double timeout_s,
                 const char *log_path, int confine, student_result *r);
void student_result_free(student_result *r);

/* A hang costs one stage once: after a run that had to be stopped, every
 * later student_run of the same stage at that size or larger (each test is
 * a process of its own, so this is a file) returns at once with after_hang
 * set, instead of waiting out its own time limit; smaller sizes still run.
 * path: a file in the stage's folder, or NULL for none. */
void student_run_hang_marker(const char *path);

/* The Landlock ABI this kernel offers, 0 for none (no confinement). */
int student_run_landlock_abi(void);

/* Whether a program at path (or any below the folder path) runs with
 * nobody's rights: when the grader is root and nobody may run it from
 * there.  It then runs as a user id of its own (student_run.c). */
int student_run_as_nobody(const char *path);

/* What makes this process's runs' user id their own: the grading
 * process's id (suite_main.c), set once.  Every run of one grade_suite
 * process shares it. */
void student_run_user_key(pid_t key);

/* For a run that ended badly: a sentence on the memory limit when the
 * program may have run into it (a message about memory in its output, or
 * a crash where a failed malloc's NULL would land), else "". */
const char *student_memory_note(const student_result *r, char *buf, size_t len);

#endif
