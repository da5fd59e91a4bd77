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
// at one source line by the 32 lanes of a warp is one request
// (check_requests.cpp).  Shared requests give bank conflicts, global ones
// 32-byte sectors (coalescing).  Hazards are found as accesses happen, from
// a shadow word per shared word: who wrote it and who read it since the
// last barrier (check_hazards.cpp).  Global memory has a shadow word per
// word too, for races between blocks: which block of this launch last
// stored it (check_races.cpp).  When the launch ends, the blocks' totals,
// merged here, are printed (check_report.cpp).  check_state.h holds what
// these files share.
#include "check_state.h"
#include "runtime_state.h"

#include <link.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace sim {

bool check_enabled = false;

namespace checking {

thread_local worker_check *this_check;
launch_totals this_launch;
dim3 launch_grid, launch_block;
kernel_site launch_site;
unsigned long long launch_serial;

namespace {

std::mutex merge_mutex;

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

// __constant__ variables: cuda_sim.h puts them in this section, whose
// bounds the linker provides (weak: a program may have none).
extern "C" char __start_sim_constant_symbols[] __attribute__((weak));
extern "C" char __stop_sim_constant_symbols[] __attribute__((weak));

// The thread's own stack, or the scheduler's bookkeeping (threadIdx and
// the like): not device memory, and most of what a check build accesses
// (a kernel's local arrays live on the stack), so asked first.
inline bool stack_or_scheduler(const worker_check *w, uintptr_t a)
{
    for (int r = 0; r < 2; r++)
        if (a - (uintptr_t)w->layout.ignore_lo[r] < (uintptr_t)w->layout.ignore_hi[r] - (uintptr_t)w->layout.ignore_lo[r])
            return true;
    return false;
}

void other_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic,
                  bool block_scoped)
{
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
inline unsigned running_thread(worker_check *w)
{
    if (current_thread != w->last_thread) {
        w->last_thread = current_thread;
        w->last_thread_index =
            (unsigned)((reinterpret_cast<const char *>(current_thread) - w->layout.fibers) / w->layout.fiber_stride);
    }
    return w->last_thread_index;
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
    } else if (stack_or_scheduler(w, a)) {
        return;
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
    into.tensor_core_macs += from.tensor_core_macs;
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

void note(worker_check *w, finding f)
{
    f.block = w->block_idx;
    f.block_order = block_linear(w);
    f.seq = w->findings_made++;
    w->totals.add_finding(f);
}

void global_access(worker_check *w, unsigned t, uintptr_t a, uint32_t size, bool store, uintptr_t pc, bool atomic,
                   bool block_scoped)
{
    if (w->dev_shadow && a - w->dev_lo < w->dev_len)  // not past an allocation's end
        block_order(w, t, a, size, store, pc, atomic, block_scoped);
    (store ? w->stores : w->loads)[t]++;
    (store ? w->totals.global_store_bytes : w->totals.global_load_bytes) += size;
    record_access(w, t, access{pc, a, size, (uint8_t)(store ? is_store : 0)});
}

}  // namespace checking

using namespace checking;

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
    w->last_thread = nullptr;  // the fibers may lie elsewhere now
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
    w->block_first_phase = w->phase;
    w->phase_marks.clear();
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
    for (uint8_t m : w->phase_marks)
        w->totals.overlapped_phases += m == (worker_check::reads_earlier | worker_check::feeds_later);
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

// One lane's share of a warp's mma_sync (warp_mma.cpp): the lane computes
// its own elements of D, so the lanes' shares add up to the warp's product.
void check_tensor_core_macs(unsigned macs)
{
    if (worker_check *w = this_check)
        if (w->in_block)
            w->totals.tensor_core_macs += macs;
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
