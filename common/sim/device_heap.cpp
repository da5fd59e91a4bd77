// The device's heap: malloc and free in a kernel (device_heap.h).
//
// The heap is reserved at its first use, as one range of address space
// that is writable only while kernels run, and then only as far as blocks
// have been taken from it (so that a large heap costs only what is used);
// blocks are carved from it first fit, 16-byte aligned as a GPU's are, and
// filled with NaN as new device memory is, so that a read of what was
// never written shows.  A request the heap cannot meet returns NULL, as on
// a GPU.
#include <sys/mman.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>

#include "engine.h"
#include "device_heap.h"
#include "runtime_state.h"

namespace {

constexpr size_t block_alignment = 16;

std::mutex heap_lock;
char *heap = nullptr;              // null until the first block
size_t heap_bytes = 8u << 20;      // cudaLimitMallocHeapSize
size_t committed = 0;              // bytes from heap on that blocks have reached
std::map<uintptr_t, size_t> used;    // block start -> bytes
std::map<uintptr_t, size_t> unused;  // free range start -> bytes, neighbours merged

void set_access(int prot)
{
    if (heap && committed)
        mprotect(heap, committed, prot);
}

// Reserves the heap (heap_lock held); false if the address space is not there.
bool reserve()
{
    void *m = mmap(nullptr, heap_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return false;
    heap = static_cast<char *>(m);
    committed = 0;
    unused[reinterpret_cast<uintptr_t>(heap)] = heap_bytes;
    return true;
}

// Makes the heap writable up to `end` (heap_lock held, kernels running);
// false if the memory is not there.
bool commit_to(uintptr_t end)
{
    const size_t page = sim::page_size();
    size_t want = (end - (uintptr_t)heap + page - 1) / page * page;
    if (want <= committed)
        return true;
    if (want > heap_bytes)
        want = heap_bytes;
    if (mprotect(heap + committed, want - committed, PROT_READ | PROT_WRITE) != 0)
        return false;
    committed = want;
    return true;
}

void *take(size_t bytes)
{
    size_t want = (bytes + block_alignment - 1) / block_alignment * block_alignment;
    if (want == 0)
        want = block_alignment;
    std::lock_guard<std::mutex> hold(heap_lock);
    if (!heap && !reserve())
        return nullptr;
    for (auto it = unused.begin(); it != unused.end(); ++it) {
        if (it->second < want)
            continue;
        uintptr_t start = it->first;
        if (!commit_to(start + want))
            return nullptr;
        size_t left = it->second - want;
        unused.erase(it);
        if (left)
            unused[start + want] = left;
        used[start] = want;
        sim::fill_with_nan(reinterpret_cast<char *>(start), want);
        return reinterpret_cast<void *>(start);
    }
    return nullptr;
}

// Gives a block back (heap_lock held), merging it with the free ranges
// beside it; false if p does not start one.
bool give_back(uintptr_t p)
{
    auto it = used.find(p);
    if (it == used.end())
        return false;
    size_t bytes = it->second;
    used.erase(it);
    auto next = unused.lower_bound(p);
    if (next != unused.end() && p + bytes == next->first) {
        bytes += next->second;
        next = unused.erase(next);
    }
    if (next != unused.begin()) {
        auto before = std::prev(next);
        if (before->first + before->second == p) {
            before->second += bytes;
            return true;
        }
    }
    unused[p] = bytes;
    return true;
}

bool heap_holds(uintptr_t p) { return heap && p >= (uintptr_t)heap && p < (uintptr_t)heap + heap_bytes; }

}  // namespace

namespace sim {

cudaError_t resize_device_heap(size_t bytes)
{
    std::lock_guard<std::mutex> hold(heap_lock);
    if (heap) {
        report("cudaDeviceSetLimit(cudaLimitMallocHeapSize, %zu): the heap is in use already (a kernel called "
               "malloc): set its size before the first kernel that does",
               bytes);
        return cudaErrorInvalidValue;
    }
    heap_bytes = bytes;
    return cudaSuccess;
}

bool in_device_heap(const void *p, uintptr_t *lo, uintptr_t *hi)
{
    auto u = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> hold(heap_lock);
    if (!heap_holds(u))
        return false;
    *lo = (uintptr_t)heap;
    *hi = (uintptr_t)heap + heap_bytes;
    auto it = used.upper_bound(u);
    if (it != used.begin()) {
        --it;
        if (u < it->first + it->second) {
            *lo = it->first;
            *hi = it->first + it->second;
        }
    }
    return true;
}

void device_heap_open()
{
    std::lock_guard<std::mutex> hold(heap_lock);
    set_access(PROT_READ | PROT_WRITE);
}

void device_heap_close()
{
    std::lock_guard<std::mutex> hold(heap_lock);
    set_access(PROT_NONE);
}

void device_heap_reset()
{
    std::lock_guard<std::mutex> hold(heap_lock);
    if (heap)
        munmap(heap, heap_bytes);
    heap = nullptr;
    committed = 0;
    used.clear();
    unused.clear();
}

}  // namespace sim

extern "C" void *sim_kernel_malloc(size_t bytes) noexcept
{
    return sim::in_kernel() ? take(bytes) : malloc(bytes);
}

extern "C" void sim_kernel_free(void *p) noexcept
{
    if (!p)
        return;
    {
        std::lock_guard<std::mutex> hold(heap_lock);
        if (heap_holds(reinterpret_cast<uintptr_t>(p))) {
            if (!give_back(reinterpret_cast<uintptr_t>(p)))
                sim::report("free(%p): not a block malloc in a kernel returned, or one freed already", p);
            return;
        }
    }
    free(p);
}
