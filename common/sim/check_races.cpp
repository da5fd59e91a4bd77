// Races between the blocks of one launch, in global memory (check_state.h).
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
// stores are not judged (blocks that write the same value to an overlap
// are common and harmless), nor is a launch that calls __threadfence(),
// which is how blocks hand data over on purpose (a last-block reduction).  An atomic of block scope
// (atomicAdd_block, ...) is atomic among the threads of its own block only:
// between blocks it is a load and a store, judged as both.  Blocks run on
// several OS threads: the shadow words are atomic, and a race between two
// such updates only picks which store is named.
#include "check_state.h"
#include "runtime_state.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace sim::checking {

// This launch and this block in one word, as a global shadow word keeps
// its last writer.
static uint64_t block_stamp(const worker_check *w) { return (uint64_t)launch_serial << 40 | (block_linear(w) + 1); }

static uint3 block_of_stamp(uint64_t stamp)
{
    uint64_t linear = (stamp & ((uint64_t(1) << 40) - 1)) - 1;
    return uint3{(unsigned)(linear % launch_grid.x), (unsigned)(linear / launch_grid.x % launch_grid.y),
                 (unsigned)(linear / ((uint64_t)launch_grid.x * launch_grid.y))};
}

static void note_block_race(worker_check *w, unsigned t, uintptr_t a, uintptr_t pc, uint64_t writer,
                            uintptr_t writer_pc, bool atomic, bool block_scoped, bool store = false,
                            bool after_atomic = false)
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
static std::mutex global_shadows_mutex;
static std::map<uintptr_t, global_shadow> global_shadows;  // by the allocation's first byte
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

}  // namespace sim::checking
