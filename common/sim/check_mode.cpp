// Check mode: counts and findings from every load and store of a kernel.
//
// A check build instruments the lab file with clang's
// -fsanitize-coverage=func,trace-loads,trace-stores, so each memory access
// of kernel code calls one of the __sanitizer_cov_* hooks below (this file
// is built without the flag).  A hook classifies the address (the block's
// shared memory, a device allocation, the simulator's own memory, or
// something a kernel must not touch), counts it, and records it for the
// current phase (the stretch between two barriers).  At the end of each
// phase the records are grouped the way a GPU issues them: the i-th access
// at one source line by the 32 lanes of a warp is one request.  Shared
// requests give bank conflicts, global ones 32-byte sectors (coalescing).
// Hazards are found as accesses happen, from a shadow word per shared word:
// who wrote it and who read it since the last barrier.  Global memory has a
// shadow word per word too, for races between blocks: which block of this
// launch last stored it.
#include "check_mode.h"
#include "check_counters.h"
#include "access_picture.h"
#include "hazard_picture.h"
#include "shared_names.h"
#include "program_file.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "runtime_state.h"

namespace sim {

bool check_enabled = false;

namespace {

constexpr unsigned warp_size = 32, banks = 32, sector_bytes = 32;
constexpr size_t max_examples = 8;

enum access_flags : uint8_t { is_store = 1, is_shared = 2 };

struct access {
    uintptr_t pc, addr;
    uint32_t size;
    uint8_t flags;
};

// Per source line (call site) and kind of access.
struct site_stats {
    unsigned long long requests = 0, wavefronts = 0, ideal_wavefronts = 0, sectors = 0;
    // The fewest sectors the lanes' bytes fit in: 4 for 32 lanes of 4 bytes,
    // 16 for 32 lanes of 16 bytes (float4).
    unsigned long long ideal_sectors = 0;
    unsigned max_degree = 1;
    // Store requests that go down a column of a tile: most lanes write 8 or
    // more words past their neighbour lane (a transposed store), where a row
    // store steps by one word.
    unsigned long long column_requests = 0;
    access_sample worst;  // shared sites: the lanes of the worst request, for make check's picture
    uint64_t worst_block = UINT64_MAX;  // ... made by this block (the earliest of those as bad)
};

enum class finding_kind { raw_or_war, waw, uninitialised_read, out_of_bounds, host_memory, divergent_barrier, block_race };

struct finding {
    finding_kind kind;
    uintptr_t pc1 = 0, pc2 = 0;  // the access (pc1) and the other thread's (pc2)
    uint3 block{}, thread1{}, thread2{};
    uint3 block2{};              // a race between blocks: the block that stored
    long offset = 0;             // bytes past an allocation
    long shared_byte = -1;       // the shared slot read before any write: its offset in the block
    bool first_is_store = false;
    bool write_after_read = false;  // a write/read pair: which comes first in program order
    bool same_warp = false;         // a hazard between two lanes of one warp (and none across warps)
    bool block_scoped = false;      // a race between blocks: the racing access is an atomic..._block
    bool after_atomic = false;      // a race between blocks: the other block's access was an atomic update
    std::string detail;
    unsigned long long count = 1;
    // Where it was found: the block's place in the launch's order, and how
    // many findings that block had made before it.  Of the findings of one
    // kind at one place, the earliest stands for them all, so the report
    // reads the same from run to run, however the OS threads that run the
    // blocks happened to take turns.
    uint64_t block_order = 0, seq = 0;
};

bool found_earlier(const finding &a, const finding &b)
{
    return a.block_order != b.block_order ? a.block_order < b.block_order : a.seq < b.seq;
}

struct shadow_word {
    uint32_t phase = 0, written_block = 0, touched_block = 0;
    int32_t writer = -1, reader = -1;
    bool many_readers = false;
    uintptr_t writer_pc = 0, reader_pc = 0;
    // For accesses ordered by a warp-level meeting (__syncwarp, a shuffle):
    // the last meeting the writer had taken part in when it wrote, and of
    // the readers, their warp (-2: more than one), their lanes and the
    // latest meeting any of them had taken part in when it read.
    uint32_t writer_meeting = 0, reader_meeting = 0;
    int32_t reader_warp = -1;
    uint32_t reader_lanes = 0;
    // Every write of this phase so far was an atomic one: atomics of
    // different threads on one word are no hazard, as a plain write
    // beside any of them is.
    bool writes_atomic = true;
};

// Totals of one launch, merged from every OS thread's share.
struct launch_totals {
    unsigned long long threads = 0, blocks = 0;
    unsigned long long global_loads = 0, global_stores = 0, shared_loads = 0, shared_stores = 0;
    unsigned long long max_loads_per_thread = 0, max_stores_per_thread = 0;
    std::map<std::pair<uintptr_t, bool>, site_stats> global_sites, shared_sites;  // (pc, store)
    std::vector<finding> findings;
    unsigned long long hazards = 0, uninitialised_shared_reads = 0, out_of_bounds = 0, host_accesses = 0,
                       divergent_barriers = 0, block_races = 0;
    // Shared memory one block used: words touched, the span from the lowest
    // to the highest, and the runs of untouched words inside it: a padded
    // tile leaves one such gap per row (its padding column), while arrays
    // merely placed apart leave one gap between them.
    unsigned long long shared_words = 0, shared_span_words = 0, shared_gaps = 0;
    // Bytes, besides instruction counts: a float4 access is one load of 16.
    unsigned long long global_load_bytes = 0, global_store_bytes = 0, shared_load_bytes = 0, shared_store_bytes = 0;
    // Stretches between barriers that touched shared memory, and those of
    // them that both read one part and wrote another: a double-buffered
    // loop stores the next tile while it reads this one.
    unsigned long long shared_phases = 0, overlapped_phases = 0;
    // Summed over the sites when the launch ends (print_report).
    unsigned long long load_requests = 0, load_sectors = 0, store_requests = 0, store_sectors = 0;
    unsigned long long load_sectors_fewest = 0;
    unsigned long long bank_conflicts_ld = 0, bank_conflicts_st = 0, shared_column_stores = 0;
    // Some hazard was between threads of two warps.  Only when none was
    // (code written for warps in lockstep: a reduction's last steps) do the
    // findings offer __syncwarp(); otherwise a __syncthreads() is needed
    // anyway, and it orders the lanes of a warp too.
    bool hazard_across_warps = false;

    void add_finding(const finding &f)
    {
        if ((f.kind == finding_kind::raw_or_war || f.kind == finding_kind::waw) && !f.same_warp)
            hazard_across_warps = true;
        for (auto &g : findings)
            if (g.kind == f.kind && g.pc1 == f.pc1 && g.pc2 == f.pc2) {
                unsigned long long count = g.count + f.count;
                if (found_earlier(f, g))
                    g = f;
                g.count = count;
                return;
            }
        if (findings.size() < 4 * max_examples) {
            findings.push_back(f);
            return;
        }
        // Full: the earliest ones are kept, whatever order they came in.
        auto latest = std::max_element(findings.begin(), findings.end(), found_earlier);
        if (found_earlier(f, *latest))
            *latest = f;
    }
};

struct worker_check {
    check_block_layout layout{};
    uint3 block_idx{};
    uint64_t findings_made = 0;  // by this block so far (finding::seq)
    dim3 block_dim;
    unsigned thread_count = 0;
    bool in_block = false;
    uintptr_t tls_lo = 0, tls_len = 0, skip_a = 0, skip_b = 0;
    uintptr_t dev_lo = 0, dev_len = 0;  // the device allocation hit last
    struct global_shadow_word *dev_shadow = nullptr;  // ... and its shadow (block_order)
    // The allocations this block has touched (A, B, C: a few), so a kernel
    // that alternates between them finds each without a lock.
    struct seen_allocation { uintptr_t lo, len; global_shadow_word *shadow; };
    std::vector<seen_allocation> seen;
    std::vector<std::vector<access>> records;
    std::vector<unsigned long long> loads, stores;
    std::vector<const void *> barrier_sites;
    std::vector<shadow_word> shadow;
    uint32_t phase = 0, block_serial = 0;
    bool phase_read_shared = false, phase_wrote_shared = false;
    launch_totals totals;
    std::map<std::pair<uintptr_t, uintptr_t>, bool> pair_order;  // (write pc, read pc) -> write after read?
    size_t phase_records = 0;  // accesses recorded since the last barrier, all threads
    // This phase's warp-level meetings: the lanes of each (meeting k is
    // meetings[k - 1]), and for each thread the meetings it took part in.
    std::vector<uint32_t> meetings;
    std::vector<std::vector<uint32_t>> thread_meetings;
};

// The last warp-level meeting thread t took part in this phase (0: none).
uint32_t last_meeting(const worker_check *w, unsigned t)
{
    return w->thread_meetings[t].empty() ? 0 : w->thread_meetings[t].back();
}

// Are the accesses the lanes `lanes` of warp `warp` made, each when it had
// taken part in meetings up to `since`, ordered before what thread t does
// now?  Only if t and all of them met at a warp-level call since then.
bool warp_ordered(const worker_check *w, unsigned t, int warp, uint32_t lanes, uint32_t since)
{
    if (warp != (int)(t / warp_size) || lanes == 0)
        return false;
    const std::vector<uint32_t> &mine = w->thread_meetings[t];
    for (auto k = mine.rbegin(); k != mine.rend() && *k > since; ++k)
        if ((w->meetings[*k - 1] & lanes) == lanes)
            return true;
    return false;
}

uint32_t lane_bit(unsigned t) { return 1u << (t % warp_size); }

// A new phase or block: no meeting orders anything yet.  Most kernels have
// none, and then there is nothing to clear.
void forget_meetings(worker_check *w)
{
    if (w->meetings.empty())
        return;
    w->meetings.clear();
    for (auto &m : w->thread_meetings)
        m.clear();
}

// A block's accesses between two barriers are kept until the barrier, to be
// analysed warp by warp.  A kernel that never finishes would grow them
// until the run's memory limit ended it with an out-of-memory message; past
// this many (24 bytes each, far beyond any real kernel at the sizes check
// mode runs) the launch is ended as a GPU's watchdog would end it, and
// called what it most likely is.  SIM_CHECK_PHASE_RECORDS sets a smaller
// limit (the simulator's own test of a spin: reaching 2^24 takes half a
// minute of growing records, a smaller limit proves the same stop).
size_t max_phase_records()
{
    static const size_t limit = [] {
        size_t fallback = size_t(1) << 24;
        const char *env = getenv("SIM_CHECK_PHASE_RECORDS");
        char *end = nullptr;
        unsigned long long asked = env ? strtoull(env, &end, 10) : 0;
        return env && *env && end && *end == '\0' && asked > 0 && asked < fallback ? size_t(asked) : fallback;
    }();
    return limit;
}

void record_access(worker_check *w, unsigned t, const access &a)
{
    w->records[t].push_back(a);
    if (++w->phase_records > max_phase_records())
        abandon_running_thread(cudaErrorLaunchTimeout,
                               "check mode stopped the launch: the block made more than " +
                                   std::to_string(max_phase_records()) +
                                   " memory accesses without reaching a barrier or finishing. The kernel seems "
                                   "not to finish: an endless loop, or a loop bound that never comes?");
}

thread_local worker_check *this_check;
std::mutex merge_mutex;
launch_totals this_launch;
dim3 launch_grid, launch_block;
kernel_site launch_site;
unsigned long long launch_serial;

worker_check *own_check()
{
    if (!this_check) {
        this_check = new worker_check();
        program_tls_block(&this_check->tls_lo, &this_check->tls_len);
        size_t tls_size = this_check->tls_len;
        this_check->skip_a = reinterpret_cast<uintptr_t>(&current_thread);
        this_check->skip_b = reinterpret_cast<uintptr_t>(&current_block);
        this_check->shadow.resize(tls_size / 4 + 1);
    }
    return this_check;
}

uint3 thread_coords(unsigned t, dim3 bd) { return uint3{t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)}; }

// The running block's place in the launch: x first, then y, then z.
uint64_t block_linear(const worker_check *w)
{
    return w->block_idx.x + (uint64_t)launch_grid.x * (w->block_idx.y + (uint64_t)launch_grid.y * w->block_idx.z);
}

// This launch and this block in one word, as a global shadow word keeps
// its last writer.
uint64_t block_stamp(const worker_check *w) { return (uint64_t)launch_serial << 40 | (block_linear(w) + 1); }

uint3 block_of_stamp(uint64_t stamp)
{
    uint64_t linear = (stamp & ((uint64_t(1) << 40) - 1)) - 1;
    return uint3{(unsigned)(linear % launch_grid.x), (unsigned)(linear / launch_grid.x % launch_grid.y),
                 (unsigned)(linear / ((uint64_t)launch_grid.x * launch_grid.y))};
}

void note(worker_check *w, finding f)
{
    f.block = w->block_idx;
    f.block_order = block_linear(w);
    f.seq = w->findings_made++;
    w->totals.add_finding(f);
}

void note_block_race(worker_check *w, unsigned t, uintptr_t a, uintptr_t pc, uint64_t writer, uintptr_t writer_pc,
                     bool atomic, bool block_scoped, bool store = false, bool after_atomic = false)
{
    finding f{finding_kind::block_race, pc, writer_pc};
    f.block2 = block_of_stamp(writer);
    f.thread1 = thread_coords(t, w->block_dim);
    f.first_is_store = atomic || store;  // the racing access: an atomic update or a store, else a load
    f.block_scoped = block_scoped;
    f.after_atomic = after_atomic;
    f.detail = describe_address(reinterpret_cast<const void *>(a));
    note(w, f);
    w->totals.block_races++;
}

// Which comes first in program order, a write at write_pc or a read at
// read_pc?  The writing thread's own accesses of this phase tell: if it read
// at read_pc before writing, the phase runs "read, then write" (typically a
// loop's next iteration overwriting a tile still being read: a barrier is
// missing after the read); otherwise "write, then read" (a barrier is
// missing after the write).
bool write_follows_read(worker_check *w, unsigned writer, uintptr_t write_pc, uintptr_t read_pc)
{
    auto key = std::make_pair(write_pc, read_pc);
    auto known = w->pair_order.find(key);
    if (known != w->pair_order.end())
        return known->second;
    bool after = false;
    for (const access &a : w->records[writer]) {
        if (a.pc == write_pc)
            break;
        if (a.pc == read_pc) {
            after = true;
            break;
        }
    }
    w->pair_order[key] = after;
    return after;
}

// Thread t read shared word i, which no thread of its block had written.
void note_uninitialised_read(worker_check *w, unsigned t, size_t i, uintptr_t pc)
{
    finding f{finding_kind::uninitialised_read, pc, 0};
    f.thread1 = thread_coords(t, w->block_dim);
    f.shared_byte = (long)(i * 4);
    note(w, f);
    w->totals.uninitialised_shared_reads++;
}

void shared_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic)
{
    size_t first = (a - w->tls_lo) / 4, last = (a + size - 1 - w->tls_lo) / 4;
    for (size_t i = first; i <= last && i < w->shadow.size(); i++) {
        shadow_word &s = w->shadow[i];
        s.touched_block = w->block_serial;
        if (s.phase != w->phase) {
            s.phase = w->phase;
            s.writer = s.reader = -1;
            s.many_readers = false;
            s.reader_warp = -1;
            s.reader_lanes = 0;
            s.reader_meeting = 0;
            s.writes_atomic = true;
        }
        bool after_writer = s.writer >= 0 && warp_ordered(w, t, s.writer / (int)warp_size, lane_bit((unsigned)s.writer),
                                                          s.writer_meeting);
        if (atomic && s.written_block != w->block_serial)  // an atomic reads the word first
            note_uninitialised_read(w, t, i, pc);
        if (store) {
            bool after_readers = s.reader_warp >= 0 && warp_ordered(w, t, s.reader_warp, s.reader_lanes & ~lane_bit(t),
                                                                      s.reader_meeting);
            if (s.writer >= 0 && s.writer != (int)t && !after_writer && !(atomic && s.writes_atomic)) {
                finding f{finding_kind::waw, pc, s.writer_pc};
                f.shared_byte = (long)(i * 4);
                f.thread1 = thread_coords(t, w->block_dim);
                f.thread2 = thread_coords((unsigned)s.writer, w->block_dim);
                f.same_warp = t / warp_size == (unsigned)s.writer / warp_size;
                note(w, f);
                w->totals.hazards++;
            } else if (s.reader >= 0 && (s.reader != (int)t || s.many_readers) && !after_readers) {
                finding f{finding_kind::raw_or_war, pc, s.reader_pc};
                f.shared_byte = (long)(i * 4);
                f.first_is_store = true;
                f.write_after_read = write_follows_read(w, t, pc, s.reader_pc);
                f.thread1 = thread_coords(t, w->block_dim);
                f.thread2 = thread_coords((unsigned)s.reader, w->block_dim);
                f.same_warp = s.reader_warp == (int)(t / warp_size);
                note(w, f);
                w->totals.hazards++;
            }
            s.writer = (int)t;
            s.writer_pc = pc;
            s.writes_atomic = s.writes_atomic && atomic;
            s.writer_meeting = last_meeting(w, t);
            s.written_block = w->block_serial;
        } else {
            if (s.written_block != w->block_serial) {
                note_uninitialised_read(w, t, i, pc);
            } else if (s.writer >= 0 && s.writer != (int)t && !after_writer) {
                finding f{finding_kind::raw_or_war, pc, s.writer_pc};
                f.shared_byte = (long)(i * 4);
                f.write_after_read = write_follows_read(w, (unsigned)s.writer, s.writer_pc, pc);
                f.thread1 = thread_coords(t, w->block_dim);
                f.thread2 = thread_coords((unsigned)s.writer, w->block_dim);
                f.same_warp = t / warp_size == (unsigned)s.writer / warp_size;
                note(w, f);
                w->totals.hazards++;
            }
            if (s.reader < 0) {
                s.reader = (int)t;
                s.reader_pc = pc;
            } else if (s.reader != (int)t) {
                s.many_readers = true;
            }
            int warp = (int)(t / warp_size);
            s.reader_warp = s.reader_warp == -1 || s.reader_warp == warp ? warp : -2;
            s.reader_lanes |= lane_bit(t);
            s.reader_meeting = std::max(s.reader_meeting, last_meeting(w, t));
        }
    }
    (store ? w->totals.shared_stores : w->totals.shared_loads)++;
    (store ? w->phase_wrote_shared : w->phase_read_shared) = true;
    (store ? w->totals.shared_store_bytes : w->totals.shared_load_bytes) += size;
    record_access(w, t, access{pc, a - w->tls_lo, size, (uint8_t)(is_shared | (store ? is_store : 0))});
}

// ---------------------------------------------------------------- races between blocks
//
// The blocks of one launch run in no set order, and nothing but a fence
// and an atomic protocol orders what one does before another: a block
// that reads (or atomically updates) a global word another block of the
// same launch stored gets an old or a new value as timing has it.  That is
// how split-k with `C[i] += partial` from several blocks loses updates on a
// GPU, while the simulator, which ran those blocks one after another, got
// it right.  Each global word's shadow holds the last block of this launch
// that stored it (launch and block in one word) and where; a load by
// another block is a race.  It holds the last block that updated it
// atomically as well: a plain load or store by another block is a race
// too, so that a race is found whichever of the two blocks ran first (a
// block that zeroes a sum the others add to atomically).  Stores beside
// stores are not judged (blocks
// that write the same value to an overlap are common and harmless), nor is
// a launch that calls __threadfence(), which is how blocks hand data over
// on purpose (a last-block reduction).  An atomic of block scope
// (atomicAdd_block, ...) is atomic among the threads of its own block only:
// between blocks it is a load and a store, judged as both.  Blocks run on
// several OS threads: the shadow words are atomic, and a race between two
// such updates only picks which store is named.
struct global_shadow_word {
    std::atomic<uint64_t> writer{0};  // launch serial << 40 | (linear block + 1); 0: no store yet
    std::atomic<uintptr_t> pc{0};
    std::atomic<uint64_t> updater{0};  // the same for the last atomic update of device scope
    std::atomic<uintptr_t> update_pc{0};
    // The last updater before it that was another block: a block's own
    // update must not hide the others' from its next plain access.
    std::atomic<uint64_t> other_updater{0};
    std::atomic<uintptr_t> other_update_pc{0};
};
struct global_shadow {
    uintptr_t len = 0;
    std::unique_ptr<global_shadow_word[]> words;
};
std::mutex global_shadows_mutex;
std::map<uintptr_t, global_shadow> global_shadows;  // by the allocation's first byte
std::atomic<bool> launch_fenced{false};

global_shadow_word *global_shadow_of(uintptr_t lo, uintptr_t len)
{
    std::lock_guard<std::mutex> lock(global_shadows_mutex);
    global_shadow &g = global_shadows[lo];
    if (g.len != len || !g.words) {  // new, or another allocation where a freed one was
        g.len = len;
        g.words.reset(new global_shadow_word[len / 4 + 1]);
    }
    return g.words.get();
}

void block_order(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic,
                 bool block_scoped)
{
    uint64_t me = block_stamp(w), this_launch_stamp = me >> 40;
    size_t first = (a - w->dev_lo) / 4, last = (a + size - 1 - w->dev_lo) / 4, words = w->dev_len / 4 + 1;
    for (size_t i = first; i <= last && i < words; i++) {
        global_shadow_word &s = w->dev_shadow[i];
        bool fenced = launch_fenced.load(std::memory_order_relaxed);
        if (!store || atomic) {
            uint64_t writer = s.writer.load(std::memory_order_relaxed);
            if (writer >> 40 == this_launch_stamp && writer != me && !fenced) {
                note_block_race(w, t, a, pc, writer, s.pc.load(std::memory_order_relaxed), atomic, block_scoped);
                return;  // one finding per access
            }
        }
        if (!atomic && !fenced) {  // a plain load or store after another block's atomic update
            uint64_t updater = s.updater.load(std::memory_order_relaxed);
            uintptr_t update_pc = s.update_pc.load(std::memory_order_relaxed);
            if (updater == me) {
                updater = s.other_updater.load(std::memory_order_relaxed);
                update_pc = s.other_update_pc.load(std::memory_order_relaxed);
            }
            if (updater >> 40 == this_launch_stamp && updater != me) {
                note_block_race(w, t, a, pc, updater, update_pc, false, false, store, true);
                return;
            }
        }
        if ((store && !atomic) || block_scoped) {
            s.writer.store(me, std::memory_order_relaxed);
            s.pc.store(pc, std::memory_order_relaxed);
        } else if (atomic) {
            uint64_t before = s.updater.exchange(me, std::memory_order_relaxed);
            uintptr_t before_pc = s.update_pc.exchange(pc, std::memory_order_relaxed);
            if (before != me && before >> 40 == this_launch_stamp) {
                s.other_updater.store(before, std::memory_order_relaxed);
                s.other_update_pc.store(before_pc, std::memory_order_relaxed);
            }
        }
    }
}

void global_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc,
                   bool atomic = false, bool block_scoped = false)
{
    if (w->dev_shadow && a - w->dev_lo < w->dev_len)  // not past an allocation's end
        block_order(w, t, a, size, store, pc, atomic, block_scoped);
    (store ? w->stores : w->loads)[t]++;
    (store ? w->totals.global_store_bytes : w->totals.global_load_bytes) += size;
    record_access(w, t, access{pc, a, size, (uint8_t)(store ? is_store : 0)});
}

// __constant__ variables: cuda_sim.h puts them in this section, whose
// bounds the linker provides (weak: a program may have none).
extern "C" char __start_sim_constant_symbols[] __attribute__((weak));
extern "C" char __stop_sim_constant_symbols[] __attribute__((weak));

void other_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic,
                  bool block_scoped)
{
    for (int r = 0; r < 2; r++)
        if (a >= (uintptr_t)w->layout.ignore_lo[r] && a < (uintptr_t)w->layout.ignore_hi[r])
            return;  // the thread's own stack, or the scheduler's bookkeeping
    // Constant memory is a space of its own on a GPU (neither a global load
    // nor host memory), read through its own cache: not counted.
    if (a >= (uintptr_t)__start_sim_constant_symbols && a < (uintptr_t)__stop_sim_constant_symbols)
        return;
    uintptr_t lo, hi;
    long past;
    switch (classify_device_address(reinterpret_cast<const void *>(a), size, &lo, &hi, &past)) {
    case device_address::inside:
        w->dev_lo = lo;
        w->dev_len = hi - lo;
        w->dev_shadow = global_shadow_of(lo, hi - lo);
        w->seen.push_back({lo, hi - lo, w->dev_shadow});
        global_access(w, t, a, size, store, pc, atomic, block_scoped);
        return;
    case device_address::out_of_bounds: {
        global_access(w, t, a, size, store, pc, atomic, block_scoped);  // a GPU issues it all the same
        finding f{finding_kind::out_of_bounds, pc, 0};
        f.first_is_store = store;
        f.thread1 = thread_coords(t, w->block_dim);
        f.offset = past;
        f.detail = describe_address(reinterpret_cast<const void *>(a));
        note(w, f);
        w->totals.out_of_bounds++;
        return;
    }
    case device_address::not_device: {
        finding f{finding_kind::host_memory, pc, 0};
        f.first_is_store = store;
        f.thread1 = thread_coords(t, w->block_dim);
        note(w, f);
        w->totals.host_accesses++;
        return;
    }
    }
}

// An access to dynamic shared memory past what the launch asked for (its
// third argument; none at all when it has two): the simulator's buffer is
// there, a GPU's block has nothing there and faults. Counted and reported
// as out of bounds; true if it was one.
bool dynamic_shared_overrun(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc)
{
    auto lo = reinterpret_cast<uintptr_t>(w->layout.dynamic_shared);
    if (a - lo >= w->layout.dynamic_capacity || a + size - lo <= w->layout.dynamic_asked)
        return false;
    finding f{finding_kind::out_of_bounds, pc, 0};
    f.first_is_store = store;
    f.thread1 = thread_coords(t, w->block_dim);
    f.offset = (long)(a + size - lo - w->layout.dynamic_asked);
    f.detail = "byte " + std::to_string(a - lo) + " of dynamic shared memory (extern __shared__), of which the launch " +
               "asked for " + std::to_string(w->layout.dynamic_asked) +
               " bytes: give the size as the launch's third argument, kernel<<<grid, block, bytes>>>";
    note(w, f);
    w->totals.out_of_bounds++;
    return true;
}

// The block's thread whose fiber is running: its index in the fiber array.
inline unsigned running_thread(const worker_check *w)
{
    return (unsigned)((reinterpret_cast<const char *>(current_thread) - w->layout.fibers) / w->layout.fiber_stride);
}

inline void on_access(const void *p, uint32_t size, bool store, void *ret, bool atomic = false,
                      bool block_scoped = false)
{
    worker_check *w = this_check;
    if (!w || !w->in_block || !current_thread)
        return;
    auto a = reinterpret_cast<uintptr_t>(p);
    auto pc = reinterpret_cast<uintptr_t>(ret) - 1;
    unsigned t = running_thread(w);
    if (a - w->tls_lo < w->tls_len) {
        if (dynamic_shared_overrun(w, t, a, size, store, pc))
            return;
        if (a != w->skip_a && a != w->skip_b)
            shared_access(w, t, a, size, store, pc, atomic);
    } else if (a - w->dev_lo < w->dev_len) {
        global_access(w, t, a, size, store, pc, atomic, block_scoped);
    } else {
        for (auto &s : w->seen)
            if (a - s.lo < s.len) {
                w->dev_lo = s.lo;
                w->dev_len = s.len;
                w->dev_shadow = s.shadow;
                global_access(w, t, a, size, store, pc, atomic, block_scoped);
                return;
            }
        other_access(w, t, a, size, store, pc, atomic, block_scoped);
    }
}

// ---------------------------------------------------------------- one warp-wide request

void shared_request(site_stats &s, const access *const *lanes, unsigned count, uint64_t block)
{
    // 4-byte accesses: one pass over the 32 banks.  Wider ones are served a
    // group of lanes at a time (8 lanes of 16 bytes fill the 128 bytes a
    // pass moves), so each group is its own wavefront.
    uint32_t size = lanes[0]->size;
    unsigned per_pass = size > 4 ? std::max(1u, 128u / size) : warp_size;
    unsigned wavefronts = 0, ideal = 0, worst = 1;
    for (unsigned g = 0; g < count; g += per_pass) {
        uintptr_t words[warp_size * 4];
        unsigned nw = 0;
        for (unsigned l = g; l < std::min(count, g + per_pass); l++)
            for (uint32_t b = 0; b < std::max<uint32_t>(size, 4); b += 4)
                words[nw++] = (lanes[l]->addr + b) / 4;
        std::sort(words, words + nw);
        nw = (unsigned)(std::unique(words, words + nw) - words);
        unsigned per_bank[banks] = {0}, degree = 1;
        for (unsigned i = 0; i < nw; i++)
            degree = std::max(degree, ++per_bank[words[i] % banks]);
        wavefronts += degree;
        ideal += 1;
        worst = std::max(worst, degree);
        if (degree > s.worst.degree || (degree == s.worst.degree && block < s.worst_block)) {
            s.worst_block = block;
            s.worst.degree = degree;
            s.worst.size = size;
            s.worst.store = (lanes[0]->flags & is_store) != 0;
            s.worst.lane_bytes.clear();
            for (unsigned l = g; l < std::min(count, g + per_pass); l++)
                s.worst.lane_bytes.push_back((uint32_t)lanes[l]->addr);
        }
    }
    s.requests++;
    s.wavefronts += wavefronts;
    s.ideal_wavefronts += ideal;
    s.max_degree = std::max(s.max_degree, worst);
    if ((lanes[0]->flags & is_store) && count > 1) {
        unsigned far = 0;
        for (unsigned l = 1; l < count; l++) {
            uintptr_t a = lanes[l]->addr / 4, b = lanes[l - 1]->addr / 4;
            far += (a > b ? a - b : b - a) >= 8;
        }
        s.column_requests += 2 * far > count - 1;
    }
}

void global_request(site_stats &s, const access *const *lanes, unsigned count)
{
    uintptr_t sectors[warp_size * 2];
    unsigned ns = 0;
    for (unsigned l = 0; l < count; l++) {
        sectors[ns++] = lanes[l]->addr / sector_bytes;
        uintptr_t end = (lanes[l]->addr + lanes[l]->size - 1) / sector_bytes;
        if (end != sectors[ns - 1])
            sectors[ns++] = end;
    }
    std::sort(sectors, sectors + ns);
    s.requests++;
    s.ideal_sectors += (count * lanes[0]->size + sector_bytes - 1) / sector_bytes;
    s.sectors += (unsigned long long)(std::unique(sectors, sectors + ns) - sectors);
}

void request(worker_check *w, const access *const *lanes, unsigned count)
{
    const access &a = *lanes[0];
    auto key = std::make_pair(a.pc, (a.flags & is_store) != 0);
    if (a.flags & is_shared)
        shared_request(w->totals.shared_sites[key], lanes, count, block_linear(w));
    else
        global_request(w->totals.global_sites[key], lanes, count);
}

// Groups one warp's accesses of this phase into requests: the k-th access
// each lane made at a given source line.  When every lane made the same
// sequence (no divergence), the k-th records line up and no map is needed.
void analyse_warp(worker_check *w, unsigned first, unsigned last)
{
    const std::vector<access> &lead = w->records[first];
    bool aligned = true;
    for (unsigned t = first + 1; t < last && aligned; t++) {
        const std::vector<access> &r = w->records[t];
        if (r.size() != lead.size())
            aligned = false;
        for (size_t i = 0; aligned && i < r.size(); i += std::max<size_t>(1, r.size() / 8))
            aligned = r[i].pc == lead[i].pc && r[i].flags == lead[i].flags;
    }
    const access *lanes[warp_size];
    if (aligned) {
        for (size_t i = 0; i < lead.size(); i++) {
            unsigned n = 0;
            for (unsigned t = first; t < last; t++)
                if (w->records[t][i].pc == lead[i].pc && w->records[t][i].flags == lead[i].flags)
                    lanes[n++] = &w->records[t][i];
            request(w, lanes, n);
        }
        return;
    }
    // Keyed by kind too: a cp.async copy records a load and a store at one
    // line, and a zero-filled one only the store, so counting them together
    // would pair one lane's store with another's load.
    std::map<std::tuple<uintptr_t, uint8_t, size_t>, std::vector<const access *>> groups;
    for (unsigned t = first; t < last; t++) {
        std::map<std::pair<uintptr_t, uint8_t>, size_t> seen;
        for (const access &a : w->records[t])
            groups[{a.pc, a.flags, seen[{a.pc, a.flags}]++}].push_back(&a);
    }
    for (auto &g : groups)
        request(w, g.second.data(), (unsigned)g.second.size());
}

// ---------------------------------------------------------------- reports

// The full path of each source file addr2line named, by its base name (the
// name messages show), so a picture can quote the line itself.
std::map<std::string, std::string> source_paths;

// Source lines for code addresses, by asking addr2line about the program.
// file:line of each code address, by addr2line on this program.
std::map<uintptr_t, std::string> addr2line_lines(const std::set<uintptr_t> &pcs)
{
    std::map<uintptr_t, std::string> lines;
    if (pcs.empty())
        return lines;
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(*pcs.begin()), &info) || !info.dli_fname)
        return lines;
    // -i follows inlining out to the function the code was inlined into,
    // so a __syncthreads() (inline, in cuda_sim.h) is named by the
    // kernel's own line; -a marks where each address's answer begins.
    std::string cmd = "addr2line -a -i -e " + program_file_for_shell();
    auto base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    char hex[32];
    for (uintptr_t pc : pcs) {
        snprintf(hex, sizeof hex, " 0x%" PRIxPTR, pc - base);
        cmd += hex;
    }
    FILE *p = popen((cmd + " 2>/dev/null").c_str(), "r");
    if (!p)
        return lines;
    char buf[4096];
    auto next = pcs.begin();
    uintptr_t current = 0;
    bool have = false;
    while (fgets(buf, sizeof buf, p)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (!strncmp(buf, "0x", 2)) {
            if (next == pcs.end())
                break;
            current = *next++;
            have = true;
            continue;
        }
        if (!have)
            continue;
        char *file = strrchr(buf, '/');
        std::string where = file ? file + 1 : buf;
        if (size_t paren = where.find(" ("); paren != std::string::npos)
            where.resize(paren);
        if (file && where.find(':') != std::string::npos) {
            std::string path(buf, (size_t)(file - buf) + 1 + where.find(':'));
            source_paths.emplace(where.substr(0, where.find(':')), path);
        }
        lines[current] = where;  // the last (outermost) frame wins
    }
    pclose(p);
    return lines;
}

// A line addr2line could not give: "file:?" or "file:0" (code the
// compiler merged from several lines, e.g. the two stores of an if/else
// made one), or "??".
bool line_unknown(const std::string &where)
{
    return where.empty() || where.compare(0, 2, "??") == 0 ||
           (where.size() >= 2 && where.compare(where.size() - 2, 2, ":?") == 0) ||
           (where.size() >= 2 && where.compare(where.size() - 2, 2, ":0") == 0);
}

// "matmul.cu:49" or "matmul.cu:49 (or near it)" as its file and line; a
// line 0 when it names none.
std::pair<std::string, long> file_and_line(const std::string &where)
{
    size_t colon = where.find(':');
    if (colon == std::string::npos)
        return {where, 0};
    return {where.substr(0, colon), strtol(where.c_str() + colon + 1, nullptr, 10)};
}

// The same, to order sites as the source does; a line not known sorts last.
std::pair<std::string, long> source_order(const std::string &where)
{
    auto at = file_and_line(where);
    if (line_unknown(where) || at.second <= 0)
        at.second = LONG_MAX;
    return at;
}

// How far back to look for the line of code the compiler merged: a few
// instructions.
constexpr uintptr_t merged_code_reach = 64;

// file:line of each code address.  Every access gets a line: where the
// compiler left none, the nearest earlier instruction's line stands in,
// marked "(or near it)".
std::map<uintptr_t, std::string> source_lines(const std::set<uintptr_t> &pcs)
{
    auto lines = addr2line_lines(pcs);
    std::set<uintptr_t> earlier;
    for (uintptr_t pc : pcs)
        if (line_unknown(lines[pc]))
            for (uintptr_t back = 1; back <= merged_code_reach && back < pc; back++)
                earlier.insert(pc - back);
    if (earlier.empty())
        return lines;
    auto earlier_lines = addr2line_lines(earlier);
    for (uintptr_t pc : pcs) {
        if (!line_unknown(lines[pc]))
            continue;
        for (uintptr_t back = 1; back <= merged_code_reach && back < pc; back++) {
            const std::string &where = earlier_lines[pc - back];
            if (!line_unknown(where)) {
                lines[pc] = where + " (or near it)";
                break;
            }
        }
    }
    return lines;
}

const char *kind_name(finding_kind k)
{
    switch (k) {
    case finding_kind::raw_or_war: return "hazard";
    case finding_kind::waw: return "hazard";
    case finding_kind::uninitialised_read: return "uninitialised_shared_read";
    case finding_kind::out_of_bounds: return "out_of_bounds";
    case finding_kind::host_memory: return "host_memory";
    case finding_kind::divergent_barrier: return "divergent_barrier";
    case finding_kind::block_race: return "block_race";
    }
    return "other";
}

std::string coords(uint3 v) { return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")"; }

std::string describe(const finding &f, std::map<uintptr_t, std::string> &at)
{
    std::string here = at[f.pc1], there = at[f.pc2];
    std::string block = "block " + coords(f.block) + ": ";
    std::string t1 = "thread " + coords(f.thread1), t2 = "thread " + coords(f.thread2);
    // Two lanes of one warp: code written for warps that ran in lockstep
    // (a reduction's last steps with no barrier) needs __syncwarp() now.
    std::string barrier = f.same_warp ? "a __syncwarp() (or __syncthreads())" : "a __syncthreads()";
    std::string lanes = f.same_warp ? " (the two are lanes of one warp, and a warp's lanes do not run in lockstep)" : "";
    switch (f.kind) {
    case finding_kind::raw_or_war: {
        std::string write_at = f.first_is_store ? here : there, read_at = f.first_is_store ? there : here;
        std::string writer = f.first_is_store ? t1 : t2, reader = f.first_is_store ? t2 : t1;
        if (!f.write_after_read)
            return "read-after-write hazard, " + block + reader + " read at " + read_at +
                   " a shared word that " + writer + " writes at " + write_at +
                   ", with no barrier between them: " + barrier + " is missing after " + write_at + lanes;
        return "write-after-read hazard, " + block + writer + " wrote at " + write_at + " a shared word that " +
               reader + " reads at " + read_at + " in the same phase: " + barrier + " is missing after " + read_at +
               lanes;
    }
    case finding_kind::waw:
        return "write-after-write hazard, " + block + t1 + " and " + t2 + " both wrote one shared word (at " + here +
               " and " + there + ") with no barrier between them" + lanes;
    case finding_kind::uninitialised_read: {
        // Which slot, when the debug information says: "As[1][5] (declared at line 28)".
        std::string slot = f.shared_byte >= 0 ? shared_slot_name(f.shared_byte) : "";
        if (slot.empty())
            return "shared memory read before anything wrote it, " + block + t1 + " at " + here;
        return "shared memory read before anything wrote it, " + block + t1 + " read " + slot + " at " + here +
               ", which no thread of the block had written";
    }
    case finding_kind::out_of_bounds:
        return std::string("out-of-bounds ") + (f.first_is_store ? "write" : "read") + " at " + here + ", " + block +
               t1 + " touched " + f.detail;
    case finding_kind::host_memory:
        return std::string("host memory ") + (f.first_is_store ? "written" : "read") + " by a kernel at " + here +
               ", " + block + t1 + " used a pointer that is not device memory (a host array passed to the kernel?)";
    case finding_kind::divergent_barrier:
        return "barrier in divergent code, " + block + "threads wait at different __syncthreads() (" + here + " and " +
               there + ") in the same phase: every thread must reach the same barriers";
    case finding_kind::block_race:
        if (f.block_scoped)
            return std::string("race between blocks, ") + block + t1 + " updated " + f.detail + " at " + here +
                   " with an atomic of block scope (atomic..._block), which block " + coords(f.block2) +
                   " had written at " + there + " in the same launch: such an atomic is atomic only among the "
                   "threads of one block, so on a GPU the two blocks' updates are not ordered and one may be "
                   "lost; use the atomic of device scope (atomicAdd, not atomicAdd_block)";
        if (f.after_atomic)
            return std::string("race between blocks, ") + block + t1 + (f.first_is_store ? " stored " : " read ") +
                   f.detail + " at " + here + ", which block " + coords(f.block2) + " had updated atomically at " +
                   there + " in the same launch: blocks run in no set order, so on a GPU the two may come either "
                   "way round (and an update is lost); every block's access to a word others update atomically "
                   "must be atomic too, or come in a later launch";
        return std::string("race between blocks, ") + block + t1 + (f.first_is_store ? " atomically updated " : " read ") +
               f.detail + " at " + here + ", which block " + coords(f.block2) + " had stored at " + there +
               " in the same launch: blocks run in no set order, so on a GPU the two may come either way round "
               "(and an update is lost); add the parts with atomicAdd, or in a later launch";
    }
    return "";
}

// The text of a source line, "matmul.cu:49" or "matmul.cu:49 (or near
// it)", trimmed; "" when the file cannot be read.
std::string source_text(const std::string &where)
{
    auto [file, line] = file_and_line(where);
    auto path = source_paths.find(file);
    if (path == source_paths.end() || line <= 0)
        return "";
    FILE *f = fopen(path->second.c_str(), "r");
    if (!f)
        return "";
    char buf[1024];
    std::string text;
    for (long n = 1; fgets(buf, sizeof buf, f); n++)
        if (n == line) {
            text = buf;
            break;
        }
    fclose(f);
    size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : text.substr(b, e - b + 1);
}

// A hazard finding as the picture shows it: its two accesses in program
// order, the one that must come first on top.
hazard_sample hazard_of(const finding &f, std::map<uintptr_t, std::string> &at)
{
    hazard_sample h;
    h.block = "block " + coords(f.block);
    std::string slot = f.shared_byte >= 0 ? shared_slot_name(f.shared_byte) : "";
    h.slot = slot.substr(0, slot.find(" ("));
    h.count = f.count;
    auto step = [&](uintptr_t pc, uint3 thread, bool store) {
        return hazard_step{"thread " + coords(thread), store, at[pc], source_text(at[pc])};
    };
    if (f.kind == finding_kind::waw) {
        h.kind = "write-after-write";
        h.first = step(f.pc2, f.thread2, true);
        h.second = step(f.pc1, f.thread1, true);
        return h;
    }
    hazard_step write = f.first_is_store ? step(f.pc1, f.thread1, true) : step(f.pc2, f.thread2, true);
    hazard_step read = f.first_is_store ? step(f.pc2, f.thread2, false) : step(f.pc1, f.thread1, false);
    h.kind = f.write_after_read ? "write-after-read" : "read-after-write";
    h.first = f.write_after_read ? read : write;
    h.second = f.write_after_read ? write : read;
    h.missing_after = h.first.where;
    // As describe() words it: the warp's own barrier
    // is enough, and a block-wide one, the lessons' first, works too.
    if (f.same_warp)
        h.barrier = "__syncwarp() (or __syncthreads())";
    return h;
}

void print_report(launch_totals &t)
{
    std::sort(t.findings.begin(), t.findings.end(), found_earlier);
    std::set<uintptr_t> pcs;
    for (auto &s : t.global_sites)
        pcs.insert(s.first.first);
    for (auto &s : t.shared_sites)
        pcs.insert(s.first.first);
    for (auto &f : t.findings) {
        if (f.pc1)
            pcs.insert(f.pc1);
        if (f.pc2)
            pcs.insert(f.pc2);
    }
    auto at = source_lines(pcs);
    if (t.hazard_across_warps)
        for (auto &f : t.findings)
            f.same_warp = false;
    for (auto &s : t.global_sites) {
        (s.first.second ? t.store_requests : t.load_requests) += s.second.requests;
        (s.first.second ? t.store_sectors : t.load_sectors) += s.second.sectors;
        if (!s.first.second)
            t.load_sectors_fewest += s.second.ideal_sectors;
    }
    for (auto &s : t.shared_sites) {
        (s.first.second ? t.bank_conflicts_st : t.bank_conflicts_ld) += s.second.wavefronts - s.second.ideal_wavefronts;
        t.shared_column_stores += s.second.column_requests;
    }
    const unsigned long long ld_req = t.load_requests, ld_sec = t.load_sectors, st_req = t.store_requests,
                             st_sec = t.store_sectors;

    FILE *o = stderr;
    const char *file = strrchr(launch_site.file, '/');
    fprintf(o, "[check] kernel launched at %s:%d, grid %s, block %s, %llu threads in %llu blocks\n",
            file ? file + 1 : launch_site.file, launch_site.line, coords(uint3(launch_grid)).c_str(),
            coords(uint3(launch_block)).c_str(), t.threads, t.blocks);
    fprintf(o, "[check]   global loads:  %llu (%.2f per thread, at most %llu)\n", t.global_loads,
            t.threads ? (double)t.global_loads / t.threads : 0.0, t.max_loads_per_thread);
    fprintf(o, "[check]   global stores: %llu (%.2f per thread, at most %llu)\n", t.global_stores,
            t.threads ? (double)t.global_stores / t.threads : 0.0, t.max_stores_per_thread);
    fprintf(o, "[check]   coalescing: %.2f sectors of 32 bytes per warp-wide load request, %.2f per store request\n",
            ld_req ? (double)ld_sec / ld_req : 0.0, st_req ? (double)st_sec / st_req : 0.0);
    for (auto &s : t.global_sites)
        if (s.second.requests && s.second.sectors > std::max(2 * s.second.ideal_sectors, 8 * s.second.requests))
            fprintf(o, "[check]     %s at %s: %.1f sectors per request (uncoalesced: the lanes of a warp touch "
                       "addresses far apart)\n",
                    s.first.second ? "store" : "load", at[s.first.first].c_str(),
                    (double)s.second.sectors / s.second.requests);
    fprintf(o, "[check]   shared loads: %llu, shared stores: %llu; one block used %llu shared words (%llu bytes)%s\n",
            t.shared_loads, t.shared_stores, t.shared_words, 4 * t.shared_words,
            t.shared_span_words > t.shared_words
                ? (", spread over " + std::to_string(t.shared_span_words) + " with " + std::to_string(t.shared_gaps) +
                   " gaps of unused words (padding, or arrays placed apart)").c_str()
                : "");
    // What stages 05 and 06 grade as a transposed tile (grader/structure.c).
    if (t.shared_column_stores)
        fprintf(o, "[check]   of those stores, %llu warp-wide requests go down a column (neighbour lanes 8 or more "
                   "words apart: a tile stored transposed)\n",
                t.shared_column_stores);
    if (t.shared_phases)
        fprintf(o, "[check]   stretches between barriers using shared memory: %llu; %llu of them store one part while "
                   "reading another (double buffering)\n",
                t.shared_phases, t.overlapped_phases);
    fprintf(o, "[check]   bank conflicts: %llu extra wavefronts on loads, %llu on stores\n", t.bank_conflicts_ld,
            t.bank_conflicts_st);
    for (auto &s : t.shared_sites)
        if (s.second.max_degree > 1)
            fprintf(o, "[check]     %u-way bank conflict at %s (%s, %llu requests, %llu extra wavefronts)\n",
                    s.second.max_degree, at[s.first.first].c_str(), s.first.second ? "store" : "load",
                    s.second.requests, s.second.wavefronts - s.second.ideal_wavefronts);
    fprintf(o, "[check]   hazards: %llu; never-written shared reads: %llu; out of bounds: %llu; host memory: %llu; "
               "divergent barriers: %llu; races between blocks: %llu\n",
            t.hazards, t.uninitialised_shared_reads, t.out_of_bounds, t.host_accesses, t.divergent_barriers,
            t.block_races);
    // The same sentence can come from several accesses on one line (As and
    // Bs loads, say): print each once, with the count of all.
    // Which threads were involved does not make two findings different.
    struct line { std::string key, text; unsigned long long count; };
    std::vector<line> lines;
    for (auto &f : t.findings) {
        finding anonymous = f;
        anonymous.block = anonymous.block2 = anonymous.thread1 = anonymous.thread2 = uint3{0, 0, 0};
        anonymous.detail = anonymous.kind == finding_kind::block_race ? "" : anonymous.detail;
        anonymous.shared_byte = -1;  // one line per code site, whichever slot it read
        if (anonymous.kind == finding_kind::raw_or_war && !anonymous.first_is_store) {
            std::swap(anonymous.pc1, anonymous.pc2);
            anonymous.first_is_store = true;
        }
        std::string key = describe(anonymous, at);
        auto same = std::find_if(lines.begin(), lines.end(), [&](const line &l) { return l.key == key; });
        if (same != lines.end())
            same->count += f.count;
        else
            lines.push_back(line{key, describe(f, at), f.count});
    }
    for (size_t i = 0; i < lines.size() && i < max_examples; i++)
        fprintf(o, "[check]     %s%s\n", lines[i].text.c_str(),
                lines[i].count > 1 ? (" (" + std::to_string(lines[i].count) + " times)").c_str() : "");

    // A picture of the worst shared access site (the highest conflict
    // degree; of sites as bad, the first in the source, not in the machine
    // code, whose order is the compiler's), for make check.
    if (const char *path = getenv("SIM_CHECK_PICTURE")) {
        const std::pair<const std::pair<uintptr_t, bool>, site_stats> *pick = nullptr;
        for (auto &site : t.shared_sites)
            if (!site.second.worst.lane_bytes.empty() &&
                (!pick || site.second.worst.degree > pick->second.worst.degree ||
                 (site.second.worst.degree == pick->second.worst.degree &&
                  source_order(at[site.first.first]) < source_order(at[pick->first.first]))))
                pick = &site;
        if (pick && write_access_picture(path, pick->second.worst, at[pick->first.first]))
            fprintf(o, "[check]   picture of the worst shared access (%s): %s\n", at[pick->first.first].c_str(), path);
    }

    // A picture of the first hazard, for make check.
    if (const char *path = getenv("SIM_CHECK_HAZARD_PICTURE"))
        for (auto &f : t.findings)
            if (f.kind == finding_kind::raw_or_war || f.kind == finding_kind::waw) {
                hazard_sample h = hazard_of(f, at);
                // Counted as the text above counts it: this pair of lines, either way round.
                h.count = 0;
                for (auto &g : t.findings)
                    if (g.kind == f.kind && ((at[g.pc1] == at[f.pc1] && at[g.pc2] == at[f.pc2]) ||
                                             (at[g.pc1] == at[f.pc2] && at[g.pc2] == at[f.pc1])))
                        h.count += g.count;
                if (write_hazard_picture(path, h))
                    fprintf(o, "[check]   picture of the first hazard (%s): %s\n", h.kind.c_str(), path);
                break;
            }

    // One line per launch for programs (the grader, the timing report).
    if (const char *path = getenv("SIM_CHECK_OUT")) {
        if (FILE *m = fopen(path, "a")) {
            fprintf(m, "launch=%llu site=%s:%d grid=%u,%u,%u block=%u,%u,%u", launch_serial,
                    file ? file + 1 : launch_site.file, launch_site.line, launch_grid.x, launch_grid.y, launch_grid.z,
                    launch_block.x, launch_block.y, launch_block.z);
            // Every counter, by the name common/check_counters.h gives it.
#define WRITE_COUNTER(name, merge, meaning) fprintf(m, " " #name "=%llu", t.name);
            CHECK_COUNTERS(WRITE_COUNTER)
#undef WRITE_COUNTER
            fprintf(m, "\n");
            for (auto &s : t.shared_sites)
                if (s.second.max_degree > 1)
                    fprintf(m, "finding launch=%llu kind=bank_conflict %u-way %s at %s\n", launch_serial,
                            s.second.max_degree, s.first.second ? "store" : "load", at[s.first.first].c_str());
            // Once per text, whichever slot it names: an unrolled loop makes
            // one source line many code addresses, each its own finding.
            std::set<std::string> written;
            for (auto &f : t.findings) {
                finding any_slot = f;
                any_slot.shared_byte = -1;
                if (written.insert(describe(any_slot, at)).second)
                    fprintf(m, "finding launch=%llu kind=%s %s\n", launch_serial, kind_name(f.kind),
                            describe(f, at).c_str());
            }
            fclose(m);
        }
    }
}

void merge(launch_totals &into, launch_totals &from)
{
    into.threads += from.threads;
    into.blocks += from.blocks;
    into.global_loads += from.global_loads;
    into.global_stores += from.global_stores;
    into.shared_loads += from.shared_loads;
    into.shared_stores += from.shared_stores;
    into.global_load_bytes += from.global_load_bytes;
    into.global_store_bytes += from.global_store_bytes;
    into.shared_store_bytes += from.shared_store_bytes;
    into.shared_load_bytes += from.shared_load_bytes;
    into.shared_phases += from.shared_phases;
    into.overlapped_phases += from.overlapped_phases;
    into.max_loads_per_thread = std::max(into.max_loads_per_thread, from.max_loads_per_thread);
    into.max_stores_per_thread = std::max(into.max_stores_per_thread, from.max_stores_per_thread);
    for (auto &s : from.global_sites) {
        site_stats &d = into.global_sites[s.first];
        d.requests += s.second.requests;
        d.sectors += s.second.sectors;
        d.ideal_sectors += s.second.ideal_sectors;
    }
    for (auto &s : from.shared_sites) {
        site_stats &d = into.shared_sites[s.first];
        d.requests += s.second.requests;
        d.wavefronts += s.second.wavefronts;
        d.ideal_wavefronts += s.second.ideal_wavefronts;
        d.max_degree = std::max(d.max_degree, s.second.max_degree);
        d.column_requests += s.second.column_requests;
        if (s.second.worst.degree > d.worst.degree ||
            (s.second.worst.degree == d.worst.degree && s.second.worst_block < d.worst_block)) {
            d.worst = s.second.worst;
            d.worst_block = s.second.worst_block;
        }
    }
    for (auto &f : from.findings)
        into.add_finding(f);
    into.hazard_across_warps = into.hazard_across_warps || from.hazard_across_warps;
    into.hazards += from.hazards;
    into.uninitialised_shared_reads += from.uninitialised_shared_reads;
    into.out_of_bounds += from.out_of_bounds;
    into.host_accesses += from.host_accesses;
    into.block_races += from.block_races;
    into.divergent_barriers += from.divergent_barriers;
    if (from.shared_words > into.shared_words) {
        into.shared_words = from.shared_words;
        into.shared_span_words = from.shared_span_words;
        into.shared_gaps = from.shared_gaps;
    }
    from = launch_totals();
}

}  // namespace

const void *check_tls_variable() { return &this_check; }

// The static TLS block, where the __shared__ arrays (static thread_local in
// a simulator build) live.  Where the main program's block sits depends on
// the architecture's TLS layout: x86-64 ("variant II") puts it right below
// the thread pointer; aarch64 and RISC-V ("variant I") right above it, past
// a thread control block of 16 bytes (aarch64) or none (RISC-V), aligned to
// the block's own alignment.
struct tls_segment { size_t size, align; };  // size: p_memsz, unrounded

static int find_tls(struct dl_phdr_info *info, size_t, void *out)
{
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            auto *ph = &info->dlpi_phdr[i];
            auto *seg = static_cast<tls_segment *>(out);
            seg->align = ph->p_align ? ph->p_align : 1;
            seg->size = ph->p_memsz;
            return 1;
        }
    return 1;  // only the main program (the first object) matters
}

void program_tls_block(uintptr_t *lo, uintptr_t *len)
{
    tls_segment seg{0, 1};
    dl_iterate_phdr(find_tls, &seg);
    auto tp = reinterpret_cast<uintptr_t>(__builtin_thread_pointer());
#if defined(__x86_64__)
    // Below the thread pointer, at an offset rounded up to the alignment;
    // the padding, if any, lies between the block's end and the pointer.
    *lo = tp - (seg.size + seg.align - 1) / seg.align * seg.align;
#elif defined(__aarch64__) || defined(__riscv)
#if defined(__aarch64__)
    const uintptr_t tcb = 16;
#else
    const uintptr_t tcb = 0;
#endif
    // The block ends at p_memsz: past it begins other libraries' TLS
    // (libc's among them), which must never be touched.
    *lo = tp + (tcb + seg.align - 1) / seg.align * seg.align;
#else
#error "the simulator does not know where this architecture keeps a program's thread-local block (check_mode.cpp)"
#endif
    *len = seg.size;
}

// ---------------------------------------------------------------- scheduler's calls

void check_launch_begin(dim3 grid, dim3 block, kernel_site site)
{
    this_launch = launch_totals();
    launch_grid = grid;
    launch_block = block;
    launch_site = site;
    launch_serial++;
    launch_fenced = false;
}

void check_block_begin(const check_block_layout &layout, uint3 block_idx, dim3 block_dim)
{
    worker_check *w = own_check();
    w->layout = layout;
    w->block_idx = block_idx;
    w->findings_made = 0;
    w->block_dim = block_dim;
    w->thread_count = block_dim.x * block_dim.y * block_dim.z;
    w->records.resize(w->thread_count);
    for (auto &r : w->records)
        r.clear();  // a block ended early (a fault) leaves its records
    w->phase_records = 0;
    w->loads.assign(w->thread_count, 0);
    w->stores.assign(w->thread_count, 0);
    w->barrier_sites.assign(w->thread_count, nullptr);
    forget_meetings(w);
    w->thread_meetings.resize(w->thread_count);
    w->phase++;
    w->block_serial++;
    w->dev_lo = w->dev_len = 0;  // allocations may have changed since the last block
    w->dev_shadow = nullptr;
    w->seen.clear();
    w->in_block = true;
}

void check_warp_meeting(unsigned first_thread, unsigned lanes)
{
    worker_check *w = this_check;
    if (!w)
        return;
    w->meetings.push_back(lanes);
    uint32_t k = (uint32_t)w->meetings.size();
    for (unsigned l = 0; l < warp_size; l++)
        if (lanes >> l & 1 && first_thread + l < w->thread_meetings.size())
            w->thread_meetings[first_thread + l].push_back(k);
}

void check_barrier(unsigned thread, const void *call_site)
{
    if (this_check && thread < this_check->barrier_sites.size())
        this_check->barrier_sites[thread] = call_site;
}

void check_phase_end()
{
    worker_check *w = this_check;
    if (!w)
        return;
    for (unsigned first = 0; first < w->thread_count; first += warp_size)
        analyse_warp(w, first, std::min(w->thread_count, first + warp_size));
    for (auto &r : w->records)
        r.clear();
    w->phase_records = 0;
    // Threads that stopped at different barrier call sites in one phase.
    const void *site = nullptr;
    unsigned at_first = 0, at_other = 0;
    for (unsigned t = 0; t < w->thread_count; t++) {
        const void *s = w->barrier_sites[t];
        if (!s)
            continue;
        if (!site)
            site = s;
        (s == site ? at_first : at_other)++;
        if (s != site && at_other == 1) {
            finding f{finding_kind::divergent_barrier, reinterpret_cast<uintptr_t>(site) - 1,
                      reinterpret_cast<uintptr_t>(s) - 1};
            note(w, f);
            w->totals.divergent_barriers++;
        }
    }
    std::fill(w->barrier_sites.begin(), w->barrier_sites.end(), nullptr);
    w->totals.shared_phases += w->phase_read_shared || w->phase_wrote_shared;
    w->totals.overlapped_phases += w->phase_read_shared && w->phase_wrote_shared;
    w->phase_read_shared = w->phase_wrote_shared = false;
    forget_meetings(w);
    w->phase++;
}

void check_block_end()
{
    worker_check *w = this_check;
    if (!w)
        return;
    check_phase_end();
    w->in_block = false;
    w->totals.threads += w->thread_count;
    w->totals.blocks++;
    size_t lo = SIZE_MAX, hi = 0, touched = 0, gaps = 0;
    for (size_t i = 0; i < w->shadow.size(); i++)
        if (w->shadow[i].touched_block == w->block_serial) {
            if (lo != SIZE_MAX && i > hi + 1)
                gaps++;
            lo = std::min(lo, i);
            hi = i;
            touched++;
        }
    if (touched > w->totals.shared_words) {
        w->totals.shared_words = touched;
        w->totals.shared_span_words = hi - lo + 1;
        w->totals.shared_gaps = gaps;
    }
    for (unsigned t = 0; t < w->thread_count; t++) {
        w->totals.global_loads += w->loads[t];
        w->totals.global_stores += w->stores[t];
        w->totals.max_loads_per_thread = std::max(w->totals.max_loads_per_thread, w->loads[t]);
        w->totals.max_stores_per_thread = std::max(w->totals.max_stores_per_thread, w->stores[t]);
    }
    std::lock_guard<std::mutex> lock(merge_mutex);
    merge(this_launch, w->totals);
}

void check_launch_end() { print_report(this_launch); }

void check_access(const void *p, unsigned size, bool store, void *site) { on_access(p, size, store, site); }

// Atomics compile to no plain load or store, so cuda_sim.h's call here:
// each counts as one store, checked like one (bounds, host memory), and in
// shared memory it is no hazard beside other atomics of the same phase.
void check_atomic_access(const void *p, unsigned size, bool block_scoped)
{
    on_access(p, size, true, __builtin_return_address(0), true, block_scoped);
}

// The old value of a global atomic, read by the kernel (cuda_sim.h's
// atomic_old): that atomic loaded the word too, so the load is counted.  It
// was checked when it happened (check_atomic_access), so it is only counted
// here, not checked again or kept for the picture of the phase; a shared
// atomic's likewise, as a shared load.
void check_atomic_result(const void *p, unsigned size)
{
    worker_check *w = this_check;
    if (!w || !w->in_block || !current_thread)
        return;
    auto a = reinterpret_cast<uintptr_t>(p);
    if (a - w->tls_lo < w->tls_len) {
        w->totals.shared_loads++;
        w->totals.shared_load_bytes += size;
        return;
    }
    uintptr_t lo, hi;
    long past;
    if (classify_device_address(p, size, &lo, &hi, &past) == device_address::not_device)
        return;
    unsigned t = running_thread(w);
    w->loads[t]++;
    w->totals.global_load_bytes += size;
}

// __threadfence() in a check build: blocks of this launch hand data over
// on purpose, which the race check between blocks does not judge.
void check_fence() { launch_fenced = true; }

}  // namespace sim

// ---------------------------------------------------------------- hooks

using sim::on_access;

extern "C" {
void sim_check_enable(void) { sim::check_enabled = true; }
int sim_check_active(void) { return sim::check_enabled; }
void __sanitizer_cov_load1(uint8_t *p) { on_access(p, 1, false, __builtin_return_address(0)); }
void __sanitizer_cov_load2(uint16_t *p) { on_access(p, 2, false, __builtin_return_address(0)); }
void __sanitizer_cov_load4(uint32_t *p) { on_access(p, 4, false, __builtin_return_address(0)); }
void __sanitizer_cov_load8(uint64_t *p) { on_access(p, 8, false, __builtin_return_address(0)); }
void __sanitizer_cov_load16(__int128 *p) { on_access(p, 16, false, __builtin_return_address(0)); }
void __sanitizer_cov_store1(uint8_t *p) { on_access(p, 1, true, __builtin_return_address(0)); }
void __sanitizer_cov_store2(uint16_t *p) { on_access(p, 2, true, __builtin_return_address(0)); }
void __sanitizer_cov_store4(uint32_t *p) { on_access(p, 4, true, __builtin_return_address(0)); }
void __sanitizer_cov_store8(uint64_t *p) { on_access(p, 8, true, __builtin_return_address(0)); }
void __sanitizer_cov_store16(__int128 *p) { on_access(p, 16, true, __builtin_return_address(0)); }
// -fsanitize-coverage=func also asks for these; nothing to do.
void __sanitizer_cov_trace_pc_guard_init(uint32_t *, uint32_t *) {}
void __sanitizer_cov_trace_pc_guard(uint32_t *) {}
}
