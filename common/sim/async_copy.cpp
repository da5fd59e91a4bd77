// cp.async for the simulator: __pipeline_memcpy_async, __pipeline_commit and
// __pipeline_wait_prior (include/cuda_pipeline_primitives.h, which calls here).
//
// A GPU may land an asynchronous copy at any moment between its issue and
// the wait that covers it.  The simulator lands it at the last moment, in
// the wait, because that is the moment that exposes mistakes: a thread that
// reads the tile before waiting sees the old contents (wrong results, as on a
// GPU when the copy is slow), and a kernel that waits but has no barrier
// before other threads read has a hazard the checker finds, since the stores
// happen in the waiting thread's current phase.  In check mode each copy
// counts as one global load and one shared store of its width, at the source
// line that issued it, so bank conflicts and coalescing are judged as for
// any other access.
#include <cstdint>
#include <cstring>
#include <vector>

#include "check_mode.h"
#include "engine.h"  // declares what this file defines
#include "runtime_state.h"

namespace sim {

namespace {

struct async_copy {
    void *dst;
    const void *src;
    unsigned bytes, zero_bytes;  // the last zero_bytes of dst are zero-filled, not read
    void *site;                  // the issuing code, for check mode's records
};

}  // namespace

struct async_copy_queue {
    std::vector<async_copy> copies;  // in issue order
    std::vector<size_t> group_ends;  // per committed group: one past its last copy
    size_t landed = 0;               // copies[0, landed) have landed
    size_t groups_landed = 0;        // so have group_ends[0, groups_landed)
};

namespace {

async_copy_queue &own_queue()
{
    thread_state *t = current_thread;
    if (!t->async_copies)
        t->async_copies = new async_copy_queue();
    return *t->async_copies;
}

void land(const async_copy &c)
{
    unsigned read = c.bytes - c.zero_bytes;
    if (check_enabled) {
        if (read)
            check_access(c.src, read, false, c.site);
        check_access(c.dst, c.bytes, true, c.site);
    }
    char *dst = static_cast<char *>(c.dst);
    if (read)
        memcpy(dst, c.src, read);
    memset(dst + read, 0, c.zero_bytes);
}

}  // namespace

// Out of line, so the return address is the kernel's issuing line.
__attribute__((noinline)) void async_copy_issue(void *dst, const void *src, size_t bytes, size_t zero_bytes)
{
    if ((bytes != 4 && bytes != 8 && bytes != 16) || zero_bytes > bytes) {
        report("__pipeline_memcpy_async: the size must be 4, 8 or 16 bytes and the zero fill at most the size "
               "(got %zu and %zu)", bytes, zero_bytes);
        abort();
    }
    own_queue().copies.push_back({dst, src, (unsigned)bytes, (unsigned)zero_bytes, __builtin_return_address(0)});
}

void async_copy_commit()
{
    async_copy_queue &q = own_queue();
    q.group_ends.push_back(q.copies.size());
}

void async_copy_wait(size_t pending_groups)
{
    async_copy_queue &q = own_queue();
    size_t committed = q.group_ends.size() - q.groups_landed;
    if (committed <= pending_groups)
        return;
    q.groups_landed = q.group_ends.size() - pending_groups;
    size_t until = q.group_ends[q.groups_landed - 1];
    for (; q.landed < until; q.landed++)
        land(q.copies[q.landed]);
    // Everything issued may have landed: start the lists again, so a long
    // loop does not grow them.
    if (q.landed == q.copies.size() && q.groups_landed == q.group_ends.size()) {
        q.copies.clear();
        q.group_ends.clear();
        q.landed = q.groups_landed = 0;
    }
}

void async_copy_forget(thread_state &t)
{
    if (t.async_copies)
        *t.async_copies = async_copy_queue();
}

}  // namespace sim
