// Hazards in shared memory, found as accesses happen (check_state.h): a
// shadow word per shared word says who wrote it and who read it since the
// last barrier, and a warp-level meeting (__syncwarp, a shuffle) orders the
// lanes that took part in it as a barrier orders a block.
#include "check_state.h"

#include <algorithm>

namespace sim::checking {

// The last warp-level meeting thread t took part in this phase (0: none).
static uint32_t last_meeting(const worker_check *w, unsigned t)
{
    return w->thread_meetings[t].empty() ? 0 : w->thread_meetings[t].back();
}

// Are the accesses the lanes `lanes` of warp `warp` made, each when it had
// taken part in meetings up to `since`, ordered before what thread t does
// now?  Only if t and all of them met at a warp-level call since then.
static bool warp_ordered(const worker_check *w, unsigned t, int warp, uint32_t lanes, uint32_t since)
{
    if (warp != (int)(t / warp_size) || lanes == 0)
        return false;
    const std::vector<uint32_t> &mine = w->thread_meetings[t];
    for (auto k = mine.rbegin(); k != mine.rend() && *k > since; ++k)
        if ((w->meetings[*k - 1] & lanes) == lanes)
            return true;
    return false;
}

static uint32_t lane_bit(unsigned t) { return 1u << (t % warp_size); }

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

// Which comes first in program order, a write at write_pc or a read at
// read_pc?  The writing thread's own accesses of this phase tell: if it read
// at read_pc before writing, the phase runs "read, then write" (typically a
// loop's next iteration overwriting a tile still being read: a barrier is
// missing after the read); otherwise "write, then read" (a barrier is
// missing after the write).
static bool write_follows_read(worker_check *w, unsigned writer, uintptr_t write_pc, uintptr_t read_pc)
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
static void note_uninitialised_read(worker_check *w, unsigned t, size_t i, uintptr_t pc)
{
    finding f{finding_kind::uninitialised_read, pc, 0};
    f.thread1 = thread_coords(t, w->block_dim);
    f.shared_byte = (long)(i * 4);
    note(w, f);
    w->totals.uninitialised_shared_reads++;
}

// A read in this phase of a word that phase `stored` wrote: this phase
// reads what an earlier one stored, and that one stored for a later one.
static void mark_handover(worker_check *w, uint32_t stored)
{
    size_t now = w->phase - w->block_first_phase, then = stored - w->block_first_phase;
    if (now >= w->phase_marks.size())
        w->phase_marks.resize(now + 1, 0);
    w->phase_marks[now] |= worker_check::reads_earlier;
    w->phase_marks[then] |= worker_check::feeds_later;
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
            s.store_phase = w->phase;
        } else {
            if (s.written_block == w->block_serial && s.store_phase != w->phase)
                mark_handover(w, s.store_phase);
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

}  // namespace sim::checking
