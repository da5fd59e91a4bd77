/* See student_run.h.  The student's process gets its own process group, so
 * a timeout kills everything it started, and that group dies with the test
 * that ran it (a death signal, and a watcher for what it forked), so a test
 * killed by Check's own timeout leaves nothing spinning.  What leaves the
 * group is handed back to the test as an orphan, and killed too. */
#define _GNU_SOURCE
#include "student_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <grp.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* Landlock's header came with Linux 5.13's; without it, nothing is confined. */
#if defined(__has_include)
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#define HAVE_LANDLOCK 1
#endif
#endif
#if !defined(SYS_landlock_create_ruleset)
#undef HAVE_LANDLOCK
#endif

#include "harness.h"
#include "lab_exec_protocol.h"

/* The grader's own settings (GRADE_SEED above all: with it and n, a
 * matmul could rebuild the test's inputs on the host) are not the student
 * program's to read.  One at a time: unsetenv reshuffles environ. */
static void forget_grader_settings(void)
{
    extern char **environ;
    for (;;) {
        char name[256] = "";
        for (char **e = environ; e && *e && !name[0]; e++) {
            size_t length = strcspn(*e, "=");
            if (strncmp(*e, "GRADE_", 6) == 0 && length < sizeof name)
                memcpy(name, *e, length), name[length] = '\0';
        }
        if (!name[0] || unsetenv(name) != 0)
            return;
    }
}

/* Why the student's program never started: the child's steps before
 * execv report a failure on a close-on-exec pipe, and nothing arrives once
 * the program runs, so nothing the student's code does can pose as one. */
typedef struct {
    int step;
    int err;
} start_failure;
enum { START_USER = 1, START_FOLDER, START_EXEC };
static int start_report_fd = -1;

static void start_failed(int step, int err)
{
    start_failure f = {step, err};
    if (start_report_fd >= 0 && write(start_report_fd, &f, sizeof f) != (ssize_t)sizeof f) {
        /* the grader is gone: nobody to tell */
    }
    _exit(step == START_EXEC ? 127 : 126);
}

/* Graded as root (a container, an autograder), the student's program runs
 * with nobody's rights: then it cannot touch the grader's files, whatever
 * it tries.  Only if nobody can run it from where it was built; otherwise
 * it keeps the grader's user (the process-level isolation above still
 * applies).
 *
 * Not as nobody itself, though, but as a user id no account has, one per
 * grade_suite process (one stage of one student: its runs, one at a time,
 * share a scratch folder): RUN_UID_BASE plus that process's id, unique
 * among those alive.  Two students graded at once then cannot signal or
 * trace each other's programs, and RLIMIT_NPROC, which counts every
 * process of a user on the machine, counts this stage's alone: one
 * student's fork bomb, or whatever else runs as nobody, cannot stop
 * another student's program from starting.  systemd leaves the ids from
 * RUN_UID_BASE up to 2147352575 unused.  Where that id cannot be taken (a
 * user namespace that maps only some ids), nobody's own. */
#define NOBODY ((uid_t)65534)
#define RUN_UID_BASE ((uid_t)1879048192u)
static pid_t run_user_key;

void student_run_user_key(pid_t key) { run_user_key = key; }

int student_run_as_nobody(const char *path)
{
    if (getuid() != 0)
        return 0;
    if (setegid(NOBODY) != 0 || seteuid(NOBODY) != 0)
        return 0;
    int usable = faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) == 0;
    if (seteuid(0) != 0 || setegid(0) != 0)
        _exit(126); /* root's rights half given up: run nothing more */
    return usable;
}

static void drop_privileges(const char *lab_exec, const char *scratch)
{
    if (!student_run_as_nobody(lab_exec))
        return;
    uid_t uid = RUN_UID_BASE + (uid_t)(run_user_key > 0 ? run_user_key : getppid());
    if (chown(scratch, uid, NOBODY) != 0)
        return;
    struct rlimit procs = {256, 256}; /* counted per user: no fork bomb */
    setrlimit(RLIMIT_NPROC, &procs);
    if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0)
        start_failed(START_USER, errno);
    if (setuid(uid) != 0 && (chown(scratch, NOBODY, NOBODY) != 0 || setuid(NOBODY) != 0))
        start_failed(START_USER, errno);
}

/* Graded as yourself, the student's program has your rights.  Where the
 * kernel has Landlock (Linux 5.13 on, when enabled), it then may still
 * write only in its scratch folder and under /dev (/dev/null, a terminal,
 * shared memory): not the kit, the results, another student's folder or
 * anything of yours.  Reading is left alone (the program needs its
 * libraries).  Only the simulator's programs are confined: a GPU program's
 * driver has not been tried under it.  On a kernel without Landlock this
 * does nothing (grade_suite --confinement tells). */
#if defined(HAVE_LANDLOCK) && !defined(LANDLOCK_ACCESS_FS_REFER)
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#if defined(HAVE_LANDLOCK) && !defined(LANDLOCK_ACCESS_FS_TRUNCATE)
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
int student_run_landlock_abi(void)
{
#ifdef HAVE_LANDLOCK
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
#else
    return 0;
#endif
}

static void confine_writes(const char *scratch)
{
#ifdef HAVE_LANDLOCK
    int abi = student_run_landlock_abi();
    if (abi < 1)
        return;
    /* Every right that changes the file system, as far as this kernel
     * knows them (truncate(2) on a path is its own right from ABI 3). */
    uint64_t writes = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                      LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                      LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        writes |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        writes |= LANDLOCK_ACCESS_FS_TRUNCATE;
    struct landlock_ruleset_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = writes;
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0)
        return;
    const char *writable[] = {scratch, "/dev"};
    for (size_t i = 0; i < sizeof writable / sizeof *writable; i++) {
        struct landlock_path_beneath_attr rule = {.allowed_access = writes,
                                                  .parent_fd = open(writable[i], O_PATH | O_CLOEXEC)};
        if (rule.parent_fd < 0)
            continue;
        syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(rule.parent_fd);
    }
    /* Either call failing leaves the program as it would be on a kernel
     * without Landlock (the rule set applies whole or not at all). */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
#else
    (void)scratch;
#endif
}

/* Host memory a student's program may use, as RLIMIT_DATA: heap and private
 * writable mappings, what malloc and new draw on.  Past it, malloc returns
 * NULL and new throws at once, instead of the machine running out of memory
 * under every student graded beside it.
 *
 * Not RLIMIT_AS: that caps address space, and both backends reserve far
 * more of it than they use.  The CUDA driver maps tens of GiB for unified
 * addressing; the simulator puts a 4 MiB reserved guard on each side of
 * every cudaMalloc.  Reservations without write access are not counted in
 * RLIMIT_DATA, so it limits what can really be filled: on an H100, CUDA's
 * runtime and a stage 04 run at n=1000 needed less than 64 MiB of it.
 *
 * The simulator's own share grows with its worker threads (each keeps 1024
 * fiber stacks of 64 KiB, about 75 MiB in all, more as a kernel's local
 * arrays grow them), so each thread adds to the
 * budget.  GRADE_MEMORY_MIB sets the student's part (default 2048). */
#define STUDENT_MEMORY_MIB 2048
#define SIM_THREAD_MIB 96

static unsigned long student_memory_limit_mib(void)
{
    unsigned long base = STUDENT_MEMORY_MIB;
    const char *env = getenv("GRADE_MEMORY_MIB");
    if (env && atol(env) > 0)
        base = (unsigned long)atol(env);
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    const char *sim = getenv("SIM_THREADS"); /* what the simulator will start */
    if (sim && atol(sim) > 0)
        threads = atol(sim);
    return base + SIM_THREAD_MIB * (unsigned long)(threads > 0 ? threads : 1);
}

/* The descriptor and variable by which the simulator reports progress. */
#define PROGRESS_FD 4
#define STRETCH 8.0 /* a working run may take this many times its limit */

double student_run_longest(double timeout_s) { return timeout_s * STRETCH; }

static void start_child(const char *lab_exec, int n, const uint64_t *seeds, int nseeds, double timeout_s,
                        const char *log_path, int confine, int result_fd, int progress_fd)
{
    setpgid(0, 0);
    pid_t grader = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* The log is opened while this is still the grader's process: the
     * student's program may not be allowed to create files here. */
    int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
        dup2(log, 1);
        dup2(log, 2);
        close(log);
    }
    /* Whatever files it writes land in a scratch folder beside its log. */
    char scratch[4096];
    snprintf(scratch, sizeof scratch, "%s", log_path);
    char *slash = strrchr(scratch, '/');
    snprintf(slash ? slash + 1 : scratch, sizeof scratch - (size_t)(slash ? slash + 1 - scratch : 0), "scratch");
    mkdir(scratch, 0755);
    drop_privileges(lab_exec, scratch);
    /* Dropping to nobody clears the death signal: set it again, as the
     * student's program, or a test killed from outside (grade-all's limit,
     * Check's, a deadline) leaves it spinning, orphaned, until its CPU
     * limit.  A grader already gone by now is seen as a new parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != grader)
        _exit(126); /* no one is waiting for it */
    if (chdir(scratch) != 0)
        start_failed(START_FOLDER, errno);
    if (confine) {
        confine_writes(scratch);
        setenv("TMPDIR", scratch, 1); /* temporary files where they may be written */
    }
    if (result_fd != LAB_EXEC_RESULT_FD) {
        dup2(result_fd, LAB_EXEC_RESULT_FD);
        close(result_fd);
    }
    if (progress_fd != PROGRESS_FD) {
        dup2(progress_fd, PROGRESS_FD); /* the copy is not close-on-exec */
        close(progress_fd);
    } else {
        fcntl(PROGRESS_FD, F_SETFD, 0);
    }
    char fd_text[16];
    snprintf(fd_text, sizeof fd_text, "%d", PROGRESS_FD);
    setenv("SIM_PROGRESS_FD", fd_text, 1);
    forget_grader_settings();
    /* Limits: CPU time a little over the wall-clock budget (the simulator
     * uses every core), no core dumps, and no file (its log included) over
     * 8 MiB: a class of chatty kernels must not fill the grader's disk. */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    double cpu_s = student_run_longest(timeout_s) * (double)(cpus > 0 ? cpus : 1);
    struct rlimit cpu = {(rlim_t)cpu_s + 2, (rlim_t)cpu_s + 3};
    struct rlimit none = {0, 0}, files = {8 << 20, 8 << 20};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &none);
    setrlimit(RLIMIT_FSIZE, &files);
    /* Past that size a write fails instead of killing the program: a
     * kernel that prints from every thread (a debugging printf left in)
     * loses the rest of its output, as a GPU's printf buffer drops what
     * does not fit, and still returns its result. */
    signal(SIGXFSZ, SIG_IGN);
    rlim_t memory = (rlim_t)student_memory_limit_mib() << 20;
    struct rlimit data = {memory, memory};
    setrlimit(RLIMIT_DATA, &data);
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%d", n);
    char **argv = calloc((size_t)nseeds + 3, sizeof *argv);
    argv[0] = (char *)lab_exec;
    argv[1] = nbuf;
    for (int i = 0; i < nseeds; i++) {
        argv[i + 2] = malloc(24);
        snprintf(argv[i + 2], 24, "%llu", (unsigned long long)seeds[i]);
    }
    execv(lab_exec, argv);
    int err = errno;
    fprintf(stderr, "cannot run %s: %s\n", lab_exec, strerror(err));
    start_failed(START_EXEC, err);
}

/* Every descriptor from `first` up closed: one close_range call where the
 * kernel has it (Linux 5.9), else one close a descriptor below 1024. */
static void close_from(int first)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0)
        return;
#endif
    for (int fd = first; fd < 1024; fd++)
        close(fd);
}

/* The student's program and whatever it forks share one process group,
 * which the grader kills when the run ends.  If the grader dies first (a
 * Ctrl-C, Check's timeout, grade-all's limit), the program dies with it (its
 * death signal), but a process it forked has no such signal and would spin
 * on until its CPU limit.  So a small watcher, in a session of its own that
 * those signals do not reach, waits for the grader's end of a pipe to close
 * and then kills the group.  Returns its pid (or -1) and the pipe's end to
 * hold in *hold. */
static pid_t start_group_reaper(pid_t group, int *hold)
{
    int p[2];
    *hold = -1;
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t reaper = fork();
    if (reaper == 0) {
        setsid();
        dup2(p[0], 0);
        close_from(1);
        char c;
        while (read(0, &c, 1) < 0 && errno == EINTR) {
        }
        kill(-group, SIGKILL);
        _exit(0);
    }
    close(p[0]);
    if (reaper < 0)
        close(p[1]);
    else
        *hold = p[1];
    return reaper;
}

/* The run ended with the grader alive: the grader has killed the group
 * itself, and the watcher goes without killing anything (the group's id may
 * belong to someone else by now). */
static void stop_group_reaper(pid_t reaper, int hold)
{
    if (reaper <= 0)
        return;
    kill(reaper, SIGKILL);
    waitpid(reaper, NULL, 0);
    close(hold);
}

/* A process the student's program started and that left its process group
 * (setsid, setpgid) escapes kill(-group).  The process running the test is
 * made a subreaper before it forks the program, so such a process, once the
 * program is gone, becomes this process's child instead of init's: after
 * the run every child but the watcher is the student's, and is killed.
 * Layer by layer: a killed process's own children are handed to us next. */
static void kill_escaped_descendants(pid_t keep)
{
    for (int round = 0; round < 1000; round++) {
        int found = 0;
        DIR *proc = opendir("/proc");
        if (!proc)
            return;
        struct dirent *e;
        while ((e = readdir(proc)) != NULL) {
            pid_t child = (pid_t)atoi(e->d_name);
            if (child <= 0 || child == keep)
                continue;
            char path[64], stat[512];
            snprintf(path, sizeof path, "/proc/%d/stat", (int)child);
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            ssize_t got = read(fd, stat, sizeof stat - 1);
            close(fd);
            if (got <= 0)
                continue;
            stat[got] = '\0';
            /* "pid (name) state ppid ...": the name may hold spaces and parentheses. */
            const char *after_name = strrchr(stat, ')');
            int parent = 0;
            if (!after_name || sscanf(after_name + 1, " %*c %d", &parent) != 1 || parent != (int)getpid())
                continue;
            kill(child, SIGKILL);
            waitpid(child, NULL, 0);
            found++;
        }
        closedir(proc);
        if (!found)
            return;
    }
}

static void read_log_tail(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)len - 1 ? size - (long)len + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t got = fread(out, 1, len - 1, f);
    out[got] = '\0';
    fclose(f);
}

static const char *hang_marker;

void student_run_hang_marker(const char *path) { hang_marker = path; }

/* The marker holds the smallest n whose run hung, then what hung.  A run
 * at that n or larger is not started: it would hang too (a kernel that
 * spins from some size on), and each would wait out its own limit.  Smaller
 * runs still go ahead and can earn their points.  Returns 1, with what hung
 * in r->detail, when this run is not to be started. */
static int earlier_run_hung(student_result *r, int n)
{
    FILE *f = hang_marker ? fopen(hang_marker, "r") : NULL;
    if (!f)
        return 0;
    int hung_n = 0;
    char what[200] = "";
    int fields = fscanf(f, "%d %199[^\n]", &hung_n, what);
    fclose(f);
    if (fields < 1 || n < hung_n)
        return 0;
    snprintf(r->detail, sizeof r->detail, "%s", what);
    return 1;
}

static void note_hang(const char *log_path, int n, double seconds)
{
    if (!hang_marker)
        return;
    FILE *f = fopen(hang_marker, "r");
    int hung_n = 0;
    if (f) {
        int known = fscanf(f, "%d", &hung_n) == 1;
        fclose(f);
        if (known && hung_n <= n)
            return;  /* a smaller size hung already */
    }
    f = fopen(hang_marker, "w");
    if (!f)
        return;
    const char *name = strrchr(log_path, '/');
    fprintf(f, "%d the run for %s was stopped after %.0f s\n", n, name ? name + 1 : log_path, seconds);
    fclose(f);
}

void student_run(const char *lab_exec, int n, const uint64_t *seeds, int nseeds, double timeout_s,
                 const char *log_path, int confine, student_result *r)
{
    memset(r, 0, sizeof *r);
    if (earlier_run_hung(r, n)) {
        r->after_hang = 1;
        return;
    }
    r->memory_limit_mib = student_memory_limit_mib();
    size_t floats = (size_t)n * n;
    size_t matrix = floats * sizeof(float);
    size_t per_seed = sizeof(lab_exec_header) + 3 * matrix; /* C, then A and B as matmul left them */
    size_t want = per_seed * (size_t)nseeds;
    char *buf = malloc(want + 1);
    r->C = malloc(matrix * (size_t)nseeds);
    r->A_after = malloc(matrix * (size_t)nseeds);
    r->B_after = malloc(matrix * (size_t)nseeds);
    int fds[2], progress[2];
    if (!buf || !r->C || !r->A_after || !r->B_after || pipe(fds) != 0) {
        snprintf(r->detail, sizeof r->detail, "grader: out of memory or pipes");
        free(buf);
        return;
    }
    /* Non-blocking both ways: the simulator never waits to report, and a
     * full pipe only drops reports. */
    if (pipe2(progress, O_NONBLOCK | O_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(r->detail, sizeof r->detail, "grader: out of pipes");
        free(buf);
        return;
    }
    int start_report[2] = {-1, -1};
    if (pipe2(start_report, O_CLOEXEC) != 0)
        start_report[0] = start_report[1] = -1;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    double started = lab_now_ms();
    pid_t pid = fork();
    int fork_errno = errno;
    if (pid == 0) {
        close(fds[0]);
        close(progress[0]);
        if (start_report[0] >= 0)
            close(start_report[0]);
        start_report_fd = start_report[1];
        start_child(lab_exec, n, seeds, nseeds, timeout_s, log_path, confine, fds[1], progress[1]);
    }
    close(fds[1]);
    close(progress[1]);
    if (start_report[1] >= 0)
        close(start_report[1]);
    if (pid < 0) {
        /* No process for the program (a process limit, no memory): the
         * machine's failure.  And no pid: every kill below would take -1,
         * every process this user may signal. */
        r->not_started = fork_errno ? fork_errno : EAGAIN;
        snprintf(r->start_error, sizeof r->start_error, "making its process: %s", strerror(r->not_started));
        close(fds[0]);
        close(progress[0]);
        if (start_report[0] >= 0)
            close(start_report[0]);
        free(buf);
        return;
    }
    setpgid(pid, pid);
    int reaper_hold;
    pid_t reaper = start_group_reaper(pid, &reaper_hold);
    double deadline = started + timeout_s * 1000, last_progress = started;
    double longest = started + student_run_longest(timeout_s) * 1000;
    size_t have = 0;
    for (;;) {
        double now = lab_now_ms();
        /* Past its limit a run goes on only while it keeps finishing blocks. */
        if (now >= longest || (now >= deadline && now - last_progress >= STUDENT_RUN_IDLE_S * 1000)) {
            r->timed_out = 1;
            break;
        }
        struct pollfd p[2] = {{fds[0], POLLIN, 0}, {progress[0], POLLIN, 0}};
        int ready = poll(p, progress[0] >= 0 ? 2 : 1, 200);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        if (progress[0] >= 0 && (p[1].revents & (POLLIN | POLLHUP))) {
            char drain[256];
            ssize_t got = read(progress[0], drain, sizeof drain);
            if (got > 0)
                last_progress = lab_now_ms();
            else if (got == 0) {
                close(progress[0]);
                progress[0] = -1;
            }
        }
        if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        ssize_t got = read(fds[0], buf + have, want - have);
        if (got <= 0)
            break; /* lab_exec closed its end: it has finished or died */
        have += (size_t)got;
        /* Every result is in: what the program does next (an exit handler
         * that lingers, a process it left holding the pipe open) cannot
         * turn them into a hang.  It gets the moment below to exit. */
        if (have == want)
            break;
    }
    close(fds[0]);
    r->seconds = (lab_now_ms() - started) / 1000;
    int status = 0;
    if (r->timed_out) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        note_hang(log_path, n, r->seconds);
    }
    /* Its results are in; give it a moment to exit, then make sure. */
    double wait_until = lab_now_ms() + 2000;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (lab_now_ms() > wait_until) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        usleep(2000);
    }
    kill(-pid, SIGKILL); /* anything it left behind */
    kill_escaped_descendants(reaper);
    stop_group_reaper(reaper, reaper_hold);
    /* Closed only now: a report written into a pipe nobody reads would end
     * the program with SIGPIPE. */
    if (progress[0] >= 0)
        close(progress[0]);
    if (WIFSIGNALED(status))
        r->signal = WTERMSIG(status);
    else if (WIFEXITED(status))
        r->exit_code = WEXITSTATUS(status);
    /* The child is gone, so its end of the pipe is closed: this read ends. */
    start_failure failed;
    if (start_report[0] >= 0 && read(start_report[0], &failed, sizeof failed) == (ssize_t)sizeof failed) {
        static const char *const steps[] = {"", "taking its user id", "entering its scratch folder", "starting it"};
        r->not_started = failed.err ? failed.err : EIO;
        /* No build to start is the student's compile error; anything else
         * is the machine's (grading.c). */
        r->build_missing = failed.step == START_EXEC && (failed.err == ENOENT || failed.err == ENOTDIR);
        snprintf(r->start_error, sizeof r->start_error, "%s: %s",
                 failed.step >= START_USER && failed.step <= START_EXEC ? steps[failed.step] : "starting it",
                 strerror(r->not_started));
    }
    if (start_report[0] >= 0)
        close(start_report[0]);
    /* Walk the records: a header, then its floats when the status is 0. */
    size_t at = 0;
    for (int s = 0; s < nseeds && at + sizeof(lab_exec_header) <= have; s++) {
        lab_exec_header h;
        memcpy(&h, buf + at, sizeof h);
        if (memcmp(h.magic, LAB_EXEC_MAGIC, 4) != 0 || h.n != n || h.seed != seeds[s])
            break;
        at += sizeof h;
        r->ledger = s == 0 || r->ledger == h.ledger ? h.ledger : LEDGER_NONE;
        r->moved.copied_to_host += h.moved.copied_to_host;
        r->moved.copied_from_host += h.moved.copied_from_host;
        r->moved.host_pointer_launches += h.moved.host_pointer_launches;
        r->ledger_calls++;
        if (h.status != 0) {
            r->cuda_status = h.status;
            h.detail[sizeof h.detail - 1] = '\0';
            snprintf(r->detail, sizeof r->detail, "%s", h.detail);
            break;
        }
        if (at + 3 * matrix > have)
            break;
        memcpy(r->C + (size_t)s * floats, buf + at, matrix);
        memcpy(r->A_after + (size_t)s * floats, buf + at + matrix, matrix);
        memcpy(r->B_after + (size_t)s * floats, buf + at + 2 * matrix, matrix);
        at += 3 * matrix;
        r->results++;
    }
    free(buf);
    r->ok = r->results == nseeds;
    read_log_tail(log_path, r->log_tail, sizeof r->log_tail);
}

void student_result_free(student_result *r)
{
    free(r->C);
    free(r->A_after);
    free(r->B_after);
    r->C = r->A_after = r->B_after = NULL;
}

const char *student_memory_note(const student_result *r, char *buf, size_t len)
{
    static const char *const signs[] = {"bad_alloc", "Cannot allocate memory", "out of memory", "null pointer"};
    int said = 0;
    for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++)
        said |= strstr(r->log_tail, signs[i]) != NULL;
    int crashed = r->signal == SIGSEGV || r->signal == SIGBUS;
    if (said)
        snprintf(buf, len, "\nOut of memory? A run may use at most %lu MiB of host memory: past that, malloc "
                 "returns NULL and new throws std::bad_alloc.", r->memory_limit_mib);
    else if (crashed)
        snprintf(buf, len, "\nA NULL pointer from a malloc that failed? A run may use at most %lu MiB of host "
                 "memory.", r->memory_limit_mib);
    else
        buf[0] = '\0';
    return buf;
}
