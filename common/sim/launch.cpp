// Kernel launches: the block scheduler, __syncthreads, and the worker pool.
//
// Every CUDA thread of a block is a fiber on one OS thread.  A pass over the
// block runs each fiber until it reaches a barrier or returns; a fiber at a
// barrier hands over straight to the next one, so a barrier costs one switch
// per thread.  When every live thread waits, they are all released and the
// next pass begins.  A warp-level call (__shfl_down_sync, __syncwarp, ...)
// is a barrier of its mask's lanes: each lane waits there until the last
// one arrives, which hands every lane its answer; the lanes it released run
// in the next pass, before the block's barrier is released.  Blocks are
// spread over a pool of OS threads; __shared__ arrays are thread_local, so
// the threads of one block, and only they, share them.
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "nan_patterns.h"
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <algorithm>
#include <vector>

#include "check_mode.h"
#include "engine.h"
#include "fiber.h"
#include "launch_limits.h"
#include "runtime_state.h"
#include "warp_rules.h"

namespace sim {

thread_local thread_state *current_thread;
thread_local block_state *current_block;

namespace {

constexpr unsigned max_block_threads = 1024;
// A block's dynamic shared memory (`extern __shared__ T name[];`, sized by
// the launch's third argument).  thread_local like the static __shared__
// arrays, so it lies in the program's TLS block, where check mode looks for
// shared memory; only the bytes a launch asked for are poisoned per block.
thread_local __attribute__((aligned(128))) char dynamic_shared_buffer[max_block_shared];
// Each fiber's stack may grow to what a GPU gives a thread of local memory
// (512 KiB: a kernel's local arrays live there), and 64 KiB more for the
// simulator's own frames.  Only its top 64 KiB are writable at first; the
// rest is reserved, and made writable a page range at a time when the
// thread first reaches into it (grow_fiber_stack, from the fault handler),
// so that a kernel of small frames costs no more memory than before, and
// only what a kernel really uses counts toward a grading run's limit.
constexpr size_t stack_limit = (512 + 64) * 1024;
constexpr size_t stack_committed = 64 * 1024;
// The threads' stack tops are staggered, each 256 bytes below the last,
// over 64 KiB: the span of a cache's sets (1024 sets of 64-byte lines in
// a 512 KiB level 2).  Stacks lie a multiple of 64 KiB apart, so unstaggered
// every thread's frames would fall in the same few sets, and a block's 256
// threads, each resumed in turn at a barrier, would evict each other's.
// Staggered over 4 KiB only (one page), a barrier-heavy kernel ran 1.6
// times as long (stage 04's TILE=16 solution at n = 1000, one OS thread,
// a 2-core EPYC: 8.0 s against 5.1 s; make bench-sim shows the like).
// The stagger is each stack's (a block's threads take stacks 0, 1, 2, ...
// in turn), and its room is added to each stack, so every thread still
// has stack_limit of its own.
constexpr size_t stagger_step = 256, stagger_slots = 256;
constexpr size_t stagger_room = stagger_step * stagger_slots;

struct launch_job {
    dim3 grid, block;
    void (*entry)(void *);
    void *closure;
    kernel_site site;
    size_t dynamic_shared;  // bytes of dynamic_shared_buffer the launch asked for
    unsigned long block_count;
    std::atomic<unsigned long> next_block{0};
    std::atomic<bool> failed{false};
    std::mutex failure_mutex;
    std::string failure;
    cudaError_t error = cudaSuccess;

    void fail(cudaError_t e, const std::string &why)
    {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failed.exchange(true)) {
            error = e;
            failure = why;
        }
    }
};

enum class fiber_state : unsigned char { fresh, started, done };
// Where a started fiber waits at a warp-level call, if it does: until its
// mask's last lane arrives, then released (it has its answer and runs
// again in this phase).
enum class fiber_wait : unsigned char { none, released, warp };

struct fiber {
    thread_state ts;
    fiber_context ctx;
    int stack = -1;
    fiber_state state = fiber_state::fresh;
    fiber_wait wait = fiber_wait::none;
    // The phase whose barrier it waits at (worker::phase): releasing a
    // barrier starts a new phase, which frees every waiting fiber at once.
    uint32_t barrier_phase = 0;
};

// One per OS thread that runs blocks: its fibers, their stacks, and the
// scheduler's own context.
struct worker {
    fiber_context scheduler;
    fiber fibers[max_block_threads];
    char *stacks = nullptr;  // max_block_threads stacks, each above a guard region
    char *writable_from[max_block_threads];  // the lowest writable byte of each stack; null before its first use
    int free_stacks[max_block_threads];
    int free_count = 0;
    block_state block;
    launch_job *job = nullptr;
    unsigned thread_count = 0;
    unsigned live = 0;
    int chain_end = 0;
    bool block_aborted = false;
    int running = -1;  // fiber now running, -1 in the scheduler
    // Warp-level calls: each fiber's while it waits at one, and its answer
    // once released (apart from the fibers, which the scheduler walks);
    // how many fibers wait at one, and how many are released.
    warp_call calls[max_block_threads];
    uint64_t answers[max_block_threads];
    unsigned at_warp_call = 0, released = 0;
    uint32_t phase = 1;
    // __syncthreads_count's tally, one per parity of the phase: a released
    // thread reads its phase's while those ahead of it already add to the
    // next one's (reset when the barrier before it is released, by which
    // time every thread has read it).
    unsigned barrier_votes[2] = {0, 0};

    worker()
    {
        // Reserved without access: the guard below each stack, and the
        // room it may grow into.  A stack's top is made writable when a
        // fiber first takes it (commit_stack): a block of 256 threads
        // uses 256 of the 1024 stacks, and each mprotect costs a system
        // call and splits the mapping, 2048 of them a run were all made
        // here before.
        void *m = mmap(nullptr, span() * max_block_threads, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            report("cannot map fiber stacks");
            abort();
        }
        stacks = static_cast<char *>(m);
        for (unsigned i = 0; i < max_block_threads; i++)
            writable_from[i] = nullptr;
        reset_stacks();
    }

    // Stack s's top stack_committed bytes made writable, the first time a
    // fiber takes it.
    void commit_stack(int s)
    {
        if (writable_from[s])
            return;
        uintptr_t from = (uintptr_t)(stack_top(s) - stack_committed) & ~(uintptr_t)(page - 1);
        if (mprotect(reinterpret_cast<void *>(from), (size_t)(stack_top(s) - reinterpret_cast<char *>(from)),
                     PROT_READ | PROT_WRITE) != 0) {
            report("cannot map fiber stacks");
            abort();
        }
        writable_from[s] = reinterpret_cast<char *>(from);
    }

    void reset_stacks()
    {
        free_count = 0;
        for (int i = max_block_threads - 1; i >= 0; i--)
            free_stacks[free_count++] = i;
    }

    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    // Below each stack, a guard region no access may skip: a frame larger
    // than a page is probed as it grows (-fstack-clash-protection), every
    // 4 KiB on x86-64 but every 64 KiB by gcc for aarch64, which assumes a
    // guard that size.  A smaller guard let such a probe land on the stack
    // below, another thread's, at random with where the stacks were mapped.
    size_t guard = page > 64 * 1024 ? page : 64 * 1024;

    static constexpr size_t stack_region() { return stack_limit + stagger_room; }
    size_t span() const { return guard + stack_region(); }
    // Where stack s starts (stagger_step): its first stack_committed bytes
    // below are writable from the start.
    char *stack_top(int s) const { return stack_base(s) + stack_region() - (size_t)s % stagger_slots * stagger_step; }
    char *stack_base(int s) const { return stacks + s * span() + guard; }

    stack_growth grow_stack(uintptr_t a);

    // The next fiber from `from` on that can run now: not finished, not
    // waiting at a barrier or at a warp-level call its lanes have not all
    // reached.
    unsigned next_runnable(unsigned from) const
    {
        while (from < thread_count &&
               (fibers[from].state == fiber_state::done || fibers[from].wait == fiber_wait::warp ||
                fibers[from].barrier_phase == phase))
            from++;
        return from;
    }

    // The fiber running now stops where it is (a barrier, a warp-level
    // call) and hands over to the next one that can run, or to the
    // scheduler at the end of the pass.
    void hand_over(unsigned i)
    {
        unsigned next = next_runnable(i + 1);
        if (next < thread_count) {
            enter(next, &fibers[i].ctx);
        } else {
            chain_end = (int)i;
            running = -1;
            fiber_switch(&fibers[i].ctx, &scheduler);
        }
    }

    uint64_t warp_collective(unsigned i, const warp_call &call);
    bool end_of_pass();

    // Shared memory is garbage when a block starts on a GPU; here it is NaN
    // (0xFF bytes), so a kernel that reads shared memory its block never
    // wrote gets NaN, not a zero or another block's leftovers.  The ranges
    // are the program's TLS block minus the simulator's own variables.
    std::vector<std::pair<char *, size_t>> shared_ranges;
    void find_shared_ranges();
    // Each block's shared memory starts as a NaN of its own (nan_patterns.h),
    // as a GPU's starts as garbage: a value read before any thread wrote it
    // poisons what it touches, and the grader can tell such a NaN from an
    // element of C that was never written.
    static void poison(char *p, size_t bytes)
    {
        const uint32_t bits = NAN_NEW_SHARED_MEMORY_BITS;
        size_t words = bytes / 4;
        for (size_t i = 0; i < words; i++)
            memcpy(p + 4 * i, &bits, 4);
        memset(p + 4 * words, 0xC5, bytes - 4 * words);
    }
    void poison_shared() const
    {
        for (auto &r : shared_ranges)
            poison(r.first, r.second);
        poison(dynamic_shared_buffer, job->dynamic_shared);
    }

    void enter(unsigned i, fiber_context *from);
    void run_block(unsigned long b);
    void run_job(launch_job *j);
};

thread_local worker *this_worker;

void worker::find_shared_ranges()
{
    uintptr_t lo, len;
    program_tls_block(&lo, &len);
    // The simulator's own variables, and the dynamic shared buffer, which
    // poison_shared fills only as far as a launch asked.
    std::vector<std::pair<uintptr_t, size_t>> own = {
        {reinterpret_cast<uintptr_t>(&current_thread), sizeof(void *)},
        {reinterpret_cast<uintptr_t>(&current_block), sizeof(void *)},
        {reinterpret_cast<uintptr_t>(&this_worker), sizeof(void *)},
        {reinterpret_cast<uintptr_t>(check_tls_variable()), sizeof(void *)},
        {reinterpret_cast<uintptr_t>(fault_tls_variable()), sizeof(void *)},
        {reinterpret_cast<uintptr_t>(dynamic_shared_buffer), sizeof dynamic_shared_buffer}};
    std::sort(own.begin(), own.end());
    uintptr_t at = lo;
    for (auto &v : own) {
        if (v.first < at || v.first >= lo + len)
            continue;
        if (v.first > at)
            shared_ranges.emplace_back(reinterpret_cast<char *>(at), v.first - at);
        at = v.first + v.second;
    }
    if (at < lo + len)
        shared_ranges.emplace_back(reinterpret_cast<char *>(at), lo + len - at);
}

// A fault at `a`: if it is in the running fiber's stack, below what is
// writable yet, the pages from a's up to there become writable.
stack_growth worker::grow_stack(uintptr_t a)
{
    if (running < 0 || a < (uintptr_t)stacks || a >= (uintptr_t)stacks + max_block_threads * span())
        return stack_growth::not_a_stack;
    int s = fibers[running].stack;
    uintptr_t base = (uintptr_t)stack_base(s), low = (uintptr_t)writable_from[s];
    if (a >= base - guard && a < base)
        return stack_growth::overflow;  // its guard: past all the room it has
    if (a < base || a >= low)
        return stack_growth::not_a_stack;  // another fiber's stack, or already writable
    uintptr_t from = a & ~(uintptr_t)(page - 1);
    if (mprotect(reinterpret_cast<void *>(from), low - from, PROT_READ | PROT_WRITE) != 0)
        return stack_growth::no_memory;
    writable_from[s] = reinterpret_cast<char *>(from);
    return stack_growth::grown;
}

worker *own_worker()
{
    if (!this_worker) {
        this_worker = new worker();
        install_fault_handler();
        this_worker->find_shared_ranges();
    }
    return this_worker;
}

void fiber_main(void *arg)
{
    worker *w = this_worker;
    unsigned i = (unsigned)(uintptr_t)arg;
    w->job->entry(w->job->closure);
    fiber &f = w->fibers[i];
    f.state = fiber_state::done;
    w->live--;
    // The stack is free once we switch away; nothing runs on it before then.
    w->free_stacks[w->free_count++] = f.stack;
    w->chain_end = (int)i;
    w->running = -1;
    fiber_switch(&f.ctx, &w->scheduler);
    abort();  // a finished fiber is never resumed
}

void worker::enter(unsigned i, fiber_context *from)
{
    fiber &f = fibers[i];
    if (f.state == fiber_state::fresh) {
        f.stack = free_stacks[--free_count];
        commit_stack(f.stack);
        fiber_init(&f.ctx, stack_base(f.stack), (size_t)(stack_top(f.stack) - stack_base(f.stack)), fiber_main,
                   (void *)(uintptr_t)i);
        f.state = fiber_state::started;
    }
    current_thread = &f.ts;
    running = (int)i;
    fiber_switch(from, &f.ctx);
}

void worker::run_block(unsigned long b)
{
    dim3 g = job->grid;
    block.block_idx = uint3{(unsigned)(b % g.x), (unsigned)(b / g.x % g.y), (unsigned)(b / ((unsigned long)g.x * g.y))};
    current_block = &block;
    poison_shared();
    for (unsigned i = 0; i < thread_count; i++) {
        fibers[i].state = fiber_state::fresh;
        fibers[i].wait = fiber_wait::none;
        async_copy_forget(fibers[i].ts);  // copies a thread of the last block left unwaited
    }
    live = thread_count;
    at_warp_call = released = 0;
    barrier_votes[0] = barrier_votes[1] = 0;
    phase++;  // no fiber waits at a barrier of this block yet
    block_aborted = false;
    if (check_enabled) {
        check_block_layout layout{reinterpret_cast<const char *>(&fibers[0].ts), sizeof(fiber),
                                  {this, stacks}, {this + 1, stacks + max_block_threads * span()},
                                  dynamic_shared_buffer, job->dynamic_shared, sizeof dynamic_shared_buffer};
        check_block_begin(layout, block.block_idx, block.block_dim);
    }
    for (;;) {
        for (unsigned pos = next_runnable(0); pos < thread_count; pos = next_runnable((unsigned)chain_end + 1)) {
            enter(pos, &scheduler);
            if (block_aborted)
                break;
        }
        if (block_aborted || live == 0 || !end_of_pass())
            break;
    }
    if (check_enabled)
        check_block_end();
    if (block_aborted) {
        for (unsigned i = 0; i < thread_count; i++)
            fibers[i].state = fiber_state::done;
        reset_stacks();
    }
    running = -1;
    current_thread = nullptr;
    current_block = nullptr;
}

// The lanes of warp `first` that take part in the warp-level call of lane
// `call_lane`: those of its mask that exist and have not returned.  Whether
// they have all arrived (each waiting there, or calling it now when
// `calling`); if so, each gets its answer and the waiting ones are
// released.  A lane of the mask that waits at another warp-level call, or a
// call CUDA leaves undefined, is an error: why says what.
enum class meeting { incomplete, complete, error };

meeting complete_warp_call(worker &w, unsigned first, unsigned call_lane, bool calling, std::string *why)
{
    const warp_call &call = w.calls[first + call_lane];
    int caller = calling ? (int)(first + call_lane) : -1;
    auto takes_part = [&](unsigned l) {
        unsigned i = first + l;
        return (call.mask >> l & 1) && i < w.thread_count && w.fibers[i].state != fiber_state::done;
    };
    // Has every lane arrived?  Lanes mostly arrive in order, so those after
    // the caller are asked first: all but the last arrival stop at once.
    for (unsigned k = 1; k <= warp_lanes; k++) {
        unsigned l = (call_lane + k) % warp_lanes, i = first + l;
        if (takes_part(l) && (int)i != caller && w.fibers[i].wait != fiber_wait::warp)
            return meeting::incomplete;
    }
    warp_call calls[warp_lanes];
    unsigned taking_part = 0;
    for (unsigned l = 0; l < warp_lanes; l++) {
        if (!takes_part(l))
            continue;
        const warp_call &theirs = w.calls[first + l];
        if (theirs.op != call.op || theirs.mask != call.mask) {
            char text[256];
            snprintf(text, sizeof text,
                     "lanes of warp %u met at different warp-level calls: lane %u at %s (mask 0x%08x), lane %u at "
                     "%s (mask 0x%08x); every lane of a mask must reach the same call",
                     first / warp_lanes, call_lane, warp_op_name(call.op), call.mask, l, warp_op_name(theirs.op),
                     theirs.mask);
            *why = text;
            return meeting::error;
        }
        calls[l] = theirs;
        taking_part |= 1u << l;
    }
    uint64_t answers[warp_lanes];
    for (unsigned l = 0; l < warp_lanes; l++)
        if ((taking_part >> l & 1) && !warp_result(calls, taking_part, l, &answers[l], why))
            return meeting::error;
    for (unsigned l = 0; l < warp_lanes; l++) {
        if (!(taking_part >> l & 1))
            continue;
        w.answers[first + l] = answers[l];
        if ((int)(first + l) != caller) {
            w.fibers[first + l].wait = fiber_wait::released;
            w.at_warp_call--;
            w.released++;
        }
    }
    if (check_enabled)
        check_warp_meeting(first, taking_part);
    return meeting::complete;
}

uint64_t worker::warp_collective(unsigned i, const warp_call &call)
{
    fiber &f = fibers[i];
    unsigned lane = i % warp_lanes;
    if (!(call.mask >> lane & 1)) {
        char why[200];
        snprintf(why, sizeof why, "lane %u called %s with mask 0x%08x, which leaves it out (on a GPU the result is "
                 "undefined)", lane, warp_op_name(call.op), call.mask);
        abandon_running_thread(cudaErrorLaunchFailure, why);
    }
    calls[i] = call;
    std::string why;
    meeting m = complete_warp_call(*this, i - lane, lane, true, &why);
    if (m == meeting::error)
        abandon_running_thread(cudaErrorLaunchFailure, why);
    if (m == meeting::complete)
        return answers[i];
    f.wait = fiber_wait::warp;
    at_warp_call++;
    hand_over(i);
    // Resumed: the last lane of the mask has arrived and left the answer.
    f.wait = fiber_wait::none;
    released--;
    return answers[i];
}

// After a pass: lanes a warp-level call released after the pass went by
// them run in another pass.  When none are left, lanes that wait at a
// warp-level call for lanes that have since returned meet without them,
// and those released run in another pass.  Otherwise every live thread
// waits at the barrier and all are released, unless some cannot go on.
// False when the block has failed.
bool worker::end_of_pass()
{
    char why[512];
    if (released)
        return true;
    int stuck = -1;
    for (unsigned i = 0; i < thread_count && at_warp_call > 0 && !released; i++) {
        if (fibers[i].state == fiber_state::done || fibers[i].wait != fiber_wait::warp)
            continue;
        std::string error;
        meeting m = complete_warp_call(*this, i - i % warp_lanes, i % warp_lanes, false, &error);
        if (m == meeting::error) {
            job->fail(cudaErrorLaunchFailure, "block (" + std::to_string(block.block_idx.x) + "," +
                                                  std::to_string(block.block_idx.y) + "," +
                                                  std::to_string(block.block_idx.z) + "): " + error);
            block_aborted = true;
            return false;
        }
        if (m == meeting::incomplete && stuck < 0)
            stuck = (int)i;
    }
    if (released)
        return true;
    if (stuck >= 0) {
        const warp_call &c = calls[stuck];
        snprintf(why, sizeof why,
                 "block (%u,%u,%u): lane %u of warp %u waits at %s (mask 0x%08x) for lanes of its mask that wait at "
                 "__syncthreads() instead; every lane a mask names must reach the same warp-level call (on a GPU "
                 "this can hang)",
                 block.block_idx.x, block.block_idx.y, block.block_idx.z, (unsigned)stuck % warp_lanes,
                 (unsigned)stuck / warp_lanes, warp_op_name(c.op), c.mask);
        job->fail(cudaErrorLaunchFailure, why);
        block_aborted = true;
        return false;
    }
    if (live < thread_count) {
        snprintf(why, sizeof why,
                 "block (%u,%u,%u): %u of %u threads wait at __syncthreads() while %u have already "
                 "returned; every thread of a block must reach every __syncthreads() (on a GPU this "
                 "can hang or corrupt results)",
                 block.block_idx.x, block.block_idx.y, block.block_idx.z, live, thread_count, thread_count - live);
        job->fail(cudaErrorLaunchFailure, why);
        block_aborted = true;
        return false;
    }
    // Every thread waits at the barrier: release them all.
    phase++;
    barrier_votes[phase & 1] = 0;
    if (check_enabled)
        check_phase_end();
    return true;
}

// Progress, for a grader that stops runs which take too long
// (grader/student_run.h): a byte written to the descriptor SIM_PROGRESS_FD
// names, when blocks finish, at most every 200 ms.  A kernel that spins
// finishes no block and reports nothing.  Without the variable, nothing.
int progress_fd()
{
    static const int fd = [] {
        const char *env = getenv("SIM_PROGRESS_FD");
        return env && *env ? atoi(env) : -1;
    }();
    return fd;
}

void report_progress()
{
    static std::atomic<long long> last_ms{0};
    int fd = progress_fd();
    if (fd < 0)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long long now = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, last = last_ms.load();
    if (now - last < 200 || !last_ms.compare_exchange_strong(last, now))
        return;
    ssize_t ignored = write(fd, "b", 1);  // a full pipe or a closed one: the report is dropped
    (void)ignored;
}

void worker::run_job(launch_job *j)
{
    job = j;
    dim3 bd = j->block;
    if (thread_count != bd.x * bd.y * bd.z || block.block_dim.x != bd.x || block.block_dim.y != bd.y) {
        thread_count = bd.x * bd.y * bd.z;
        for (unsigned i = 0; i < thread_count; i++)
            fibers[i].ts.thread_idx = uint3{i % bd.x, i / bd.x % bd.y, i / (bd.x * bd.y)};
    }
    block.block_dim = bd;
    block.grid_dim = j->grid;
    for (;;) {
        if (j->failed.load(std::memory_order_relaxed))
            break;
        unsigned long b = j->next_block.fetch_add(1, std::memory_order_relaxed);
        if (b >= j->block_count)
            break;
        run_block(b);
        report_progress();
    }
    job = nullptr;
}

// The pool: worker threads sleep until a launch publishes a job, run blocks
// until none is left, and report back.  The launching thread works too.
struct pool {
    std::mutex m;
    std::condition_variable wake, finished;
    launch_job *job = nullptr;
    unsigned long generation = 0;
    unsigned busy = 0;
    std::vector<std::thread> threads;

    static unsigned wanted_threads()
    {
        if (const char *env = getenv("SIM_THREADS")) {
            int n = atoi(env);
            if (n >= 1)
                return (unsigned)n;
        }
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        return cpus > 0 ? (unsigned)cpus : 1;
    }

    // Threads only share the work, so a pool short of what it wanted
    // computes the same results: where no more can be made (a process
    // limit, RLIMIT_NPROC under a grader, below the machine's core count)
    // it goes on with those it has rather than end the student's program.
    void start()
    {
        unsigned extra = wanted_threads() - 1;
        for (unsigned t = 0; t < extra; t++) {
            try {
                threads.emplace_back([this] { loop(); });
            } catch (const std::system_error &) {
                break;
            }
        }
    }

    void loop()
    {
        own_worker();
        unsigned long seen = 0;
        for (;;) {
            launch_job *j;
            {
                std::unique_lock<std::mutex> lock(m);
                wake.wait(lock, [&] { return generation != seen; });
                seen = generation;
                j = job;
            }
            this_worker->run_job(j);
            std::lock_guard<std::mutex> lock(m);
            if (--busy == 0)
                finished.notify_all();
        }
    }

    void run(launch_job *j)
    {
        unsigned helpers = (unsigned)threads.size();
        if (j->block_count > 1 && helpers > 0) {
            {
                std::lock_guard<std::mutex> lock(m);
                job = j;
                busy = helpers;
                generation++;
            }
            wake.notify_all();
        } else {
            helpers = 0;
        }
        own_worker()->run_job(j);
        if (helpers) {
            std::unique_lock<std::mutex> lock(m);
            finished.wait(lock, [&] { return busy == 0; });
        }
    }
};

pool &the_pool()
{
    static pool *p = [] {
        auto *made = new pool();
        made->start();
        return made;
    }();
    return *p;
}

}  // namespace

const char *short_file(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void *dynamic_shared_memory() { return dynamic_shared_buffer; }

// clock64() in a kernel (cuda_sim.h).
long long steady_nanoseconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

namespace {
// The running thread waits at the barrier at `call_site` (the kernel's
// code, for check mode's reports), counted among the votes if `vote`:
// the number of the block's threads that voted so.
unsigned wait_at_barrier(const void *call_site, bool vote)
{
    worker *w = this_worker;
    if (!w || w->running < 0) {
        report("__syncthreads() called outside a kernel");
        return 0;
    }
    unsigned i = (unsigned)w->running;
    uint32_t phase = w->phase;
    w->fibers[i].barrier_phase = phase;
    w->barrier_votes[phase & 1] += vote;
    if (check_enabled)
        check_barrier(i, call_site);
    w->hand_over(i);
    // Resumed: every thread of the block has reached the barrier.
    return w->barrier_votes[phase & 1];
}
}  // namespace

void barrier() { wait_at_barrier(__builtin_return_address(0), false); }

unsigned barrier_count(int predicate) { return wait_at_barrier(__builtin_return_address(0), predicate != 0); }

uint64_t warp_collective(const warp_call &call)
{
    worker *w = this_worker;
    if (!w || w->running < 0) {
        report("%s called outside a kernel", warp_op_name(call.op));
        return 0;
    }
    return w->warp_collective((unsigned)w->running, call);
}

bool abandon_faulting_thread(const std::string &why) { return abandon_running_thread(cudaErrorIllegalAddress, why); }

bool in_kernel() { return this_worker && this_worker->running >= 0; }

stack_growth grow_fiber_stack(const void *addr)
{
    worker *w = this_worker;
    return w ? w->grow_stack(reinterpret_cast<uintptr_t>(addr)) : stack_growth::not_a_stack;
}

size_t fiber_stack_limit() { return stack_limit; }

bool abandon_running_thread(cudaError_t error, const std::string &why)
{
    worker *w = this_worker;
    if (!w || !w->job || w->running < 0)
        return false;
    unsigned i = (unsigned)w->running;
    const uint3 t = w->fibers[i].ts.thread_idx, b = w->block.block_idx;
    char where[160];
    snprintf(where, sizeof where, "thread (%u,%u,%u) of block (%u,%u,%u): ", t.x, t.y, t.z, b.x, b.y, b.z);
    w->job->fail(error, where + why);
    w->block_aborted = true;
    w->running = -1;
    fiber_context discarded;
    fiber_switch(&discarded, &w->scheduler);
    abort();
}

cudaError_t launch(dim3 grid, dim3 block, size_t dynamic_shared, void (*entry)(void *), void *closure,
                   kernel_site site, const void *kernel)
{
    if (sticky_error())
        return record_error(sticky_error());
    unsigned long threads = (unsigned long)block.x * block.y * block.z;
    const char *bad = nullptr;
    if (threads == 0 || (unsigned long)grid.x * grid.y * grid.z == 0)
        bad = "a grid or block dimension is 0";
    else if (threads > max_block_threads)
        bad = "more than 1024 threads per block";
    else if (block.x > 1024 || block.y > 1024 || block.z > 64)
        bad = "a block dimension is over its limit (x, y <= 1024, z <= 64)";
    else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        bad = "a grid dimension is over its limit (x < 2^31, y, z <= 65535)";
    if (bad) {
        report("%s:%d: launch <<<(%u,%u,%u), (%u,%u,%u)>>> refused: %s (cudaErrorInvalidConfiguration)",
               short_file(site.file), site.line, grid.x, grid.y, grid.z, block.x, block.y, block.z, bad);
        return record_error(cudaErrorInvalidConfiguration);
    }
    std::string refused = refused_for_resources(kernel, threads);
    if (!refused.empty()) {
        report("%s:%d: launch <<<(%u,%u,%u), (%u,%u,%u)>>> refused: %s (cudaErrorLaunchOutOfResources)",
               short_file(site.file), site.line, grid.x, grid.y, grid.z, block.x, block.y, block.z,
               refused.c_str());
        return record_error(cudaErrorLaunchOutOfResources);
    }
    refused = refused_for_shared_memory(kernel, dynamic_shared);
    if (!refused.empty()) {
        report("%s:%d: launch <<<(%u,%u,%u), (%u,%u,%u), %zu>>> refused: %s (cudaErrorInvalidValue)",
               short_file(site.file), site.line, grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_shared,
               refused.c_str());
        return record_error(cudaErrorInvalidValue);
    }
    launch_job job;
    job.grid = grid;
    job.block = block;
    job.entry = entry;
    job.closure = closure;
    job.site = site;
    job.dynamic_shared = dynamic_shared;
    job.block_count = (unsigned long)grid.x * grid.y * grid.z;
    if (check_enabled)
        check_launch_begin(grid, block, site);
    device_memory_open();
    the_pool().run(&job);
    device_memory_close();
    if (!job.failed) {
        std::string overrun = check_allocation_bounds();
        if (!overrun.empty())
            job.fail(cudaErrorIllegalAddress, overrun);
    }
    if (check_enabled)
        check_launch_end();
    if (job.failed) {
        report("kernel launched at %s:%d failed: %s", short_file(site.file), site.line, job.failure.c_str());
        record_sticky_error(job.error);
        return job.error;
    }
    return cudaSuccess;
}

}  // namespace sim
