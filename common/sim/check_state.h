// Check mode's own state, shared by its files and nothing else: what one
// access leaves (access), what each source line's requests added up to
// (site_stats), a finding, the shadow of a shared word, a launch's totals
// and one OS thread's view of the block it runs (worker_check); and the
// calls from one of check mode's files to another.  The scheduler's side
// is check_mode.h.
//
//   check_mode.cpp      the hooks: each access classified (shared memory, a
//                       device allocation, neither), counted and recorded;
//                       the scheduler's calls; a launch's totals merged
//   check_hazards.cpp   shared memory's shadow words: hazards between the
//                       threads of a block, reads of words never written
//   check_races.cpp     global memory's shadow words: races between blocks
//   check_requests.cpp  a phase's records, warp by warp, as the requests a
//                       GPU issues: sectors (coalescing) and bank conflicts
//   check_report.cpp    source lines (addr2line), findings in words, and
//                       the printed report
#ifndef SIM_CHECK_STATE_H
#define SIM_CHECK_STATE_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "access_picture.h"
#include "check_mode.h"

namespace sim::checking {

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

inline bool found_earlier(const finding &a, const finding &b)
{
    return a.block_order != b.block_order ? a.block_order < b.block_order : a.seq < b.seq;
}

struct shadow_word {
    uint32_t phase = 0, written_block = 0, touched_block = 0;
    uint32_t store_phase = 0;  // the phase of its last store (in written_block)
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
    // Multiply-adds of the launch's mma_sync calls: the tensor-core stage's
    // structural test asks that they make the whole product.
    unsigned long long tensor_core_macs = 0;
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
    // The thread that made the last access, and its index: a fiber makes
    // many in a row, and the index is a 64-bit division to work out.
    const void *last_thread = nullptr;
    unsigned last_thread_index = 0;
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
    // Double buffering, per phase of this block (from block_first_phase):
    // it read shared words an earlier phase stored (reads_earlier), and
    // stored words a later phase reads (feeds_later).  A phase with both
    // is an overlapped one, counted when the block ends: whether a store
    // feeds a later phase is known only then.
    enum : uint8_t { reads_earlier = 1, feeds_later = 2 };
    uint32_t block_first_phase = 0;
    std::vector<uint8_t> phase_marks;
    launch_totals totals;
    std::map<std::pair<uintptr_t, uintptr_t>, bool> pair_order;  // (write pc, read pc) -> write after read?
    size_t phase_records = 0;  // accesses recorded since the last barrier, all threads
    // This phase's warp-level meetings: the lanes of each (meeting k is
    // meetings[k - 1]), and for each thread the meetings it took part in.
    std::vector<uint32_t> meetings;
    std::vector<std::vector<uint32_t>> thread_meetings;
};

// ---------------------------------------------------------------- check_mode.cpp
// The OS thread's own state, and the launch being checked.
extern thread_local worker_check *this_check;
extern launch_totals this_launch;
extern dim3 launch_grid, launch_block;
extern kernel_site launch_site;
extern unsigned long long launch_serial;

inline uint3 thread_coords(unsigned t, dim3 bd) { return uint3{t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)}; }

// The running block's place in the launch: x first, then y, then z.
inline uint64_t block_linear(const worker_check *w)
{
    return w->block_idx.x + (uint64_t)launch_grid.x * (w->block_idx.y + (uint64_t)launch_grid.y * w->block_idx.z);
}

// Keeps an access for the analysis at the phase's end.
void record_access(worker_check *w, unsigned t, const access &a);
// Adds a finding to the block's totals, stamped with where it was found.
void note(worker_check *w, finding f);
// Counts and records an access to device memory, and judges it for races
// between blocks where it is inside an allocation.
void global_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc,
                   bool atomic = false, bool block_scoped = false);

// ---------------------------------------------------------------- check_hazards.cpp
// Judges an access to the block's shared memory against its words' shadows
// (hazards, reads of words never written), then counts and records it.
void shared_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic);
// A new phase or block: no warp-level meeting orders anything yet.
void forget_meetings(worker_check *w);

// ---------------------------------------------------------------- check_races.cpp
// The launch called __threadfence(): its blocks hand data over on purpose.
extern std::atomic<bool> launch_fenced;
// The shadow words of the device allocation at lo, made on first use.
global_shadow_word *global_shadow_of(uintptr_t lo, uintptr_t len);
// Judges an access inside an allocation for a race with another block.
void block_order(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic,
                 bool block_scoped);

// ---------------------------------------------------------------- check_requests.cpp
// The phase's accesses of threads first..last-1 (one warp) as requests.
void analyse_warp(worker_check *w, unsigned first, unsigned last);

// ---------------------------------------------------------------- check_report.cpp
// The launch's report, when it ends.
void print_report(launch_totals &t);

}  // namespace sim::checking

#endif
