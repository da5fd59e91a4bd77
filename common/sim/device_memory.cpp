// Simulated device memory: cudaMalloc, cudaFree, cudaMemcpy, cudaMemset.
//
// Each allocation gets its own mapping with an inaccessible guard region on
// either side, and its data ends right at the upper guard (rounded to
// CUDA's 256-byte alignment), so a kernel that runs off the end of an array
// faults on the first bad access instead of quietly scribbling.  Outside
// kernels the data is inaccessible too, as it is to a GPU program's host
// code.  New memory is filled with NaN, not zeros: a result a kernel never
// wrote shows up as NaN instead of passing for a correct zero.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "device_heap.h"
#include "nan_patterns.h"
#include "runtime_state.h"

namespace sim {

size_t page_size() { static const size_t p = (size_t)sysconf(_SC_PAGESIZE); return p; }

// A quiet NaN in every whole float, 0xFF in any leftover bytes.
void fill_with_nan(char *p, size_t bytes)
{
    const uint32_t nan_bits = NAN_NEW_DEVICE_MEMORY_BITS;
    size_t words = bytes / 4;
    for (size_t i = 0; i < words; i++)
        memcpy(p + 4 * i, &nan_bits, 4);
    memset(p + 4 * words, 0xFF, bytes - 4 * words);
}

namespace {

constexpr size_t alignment = 256;
constexpr unsigned char slack_canary = 0xA5;

struct allocation {
    char *map;          // whole mapping: guard, slack, data, guard
    size_t map_bytes;
    char *data;
    size_t bytes;       // as asked for
    size_t slack_before;
    const char *name = nullptr;        // a matrix of floats the harness named (sim_name_allocation) ...
    int columns = 0;                   // ... and its width
};

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

// Keyed by the end of the data, so upper_bound finds the candidate.
std::map<uintptr_t, allocation> &allocations()
{
    static std::map<uintptr_t, allocation> all;
    return all;
}

bool memory_open = false;
unsigned long long copied_to_host = 0;    // device-to-host bytes, for sim_ledger_of
unsigned long long copied_from_host = 0;  // host-to-device bytes, into any device memory
unsigned long long host_pointer_launches = 0;  // launches given host memory (note_launch_pointers)

// Reserved, never accessible address space on each side of an allocation:
// an index a few rows past the end lands here, not in some other mapping.
// Reserving address space costs no memory.
constexpr size_t guard_bytes = 4u << 20;

char *body(const allocation &a) { return a.map + guard_bytes; }
size_t body_bytes(const allocation &a) { return a.map_bytes - 2 * guard_bytes; }

void set_access(const allocation &a, int prot) { mprotect(body(a), body_bytes(a), prot); }

// The allocation whose mapping (guards included) holds p, or null.
const allocation *mapping_of(const void *p)
{
    auto u = reinterpret_cast<uintptr_t>(p);
    for (auto &entry : allocations()) {
        const allocation &a = entry.second;
        auto lo = reinterpret_cast<uintptr_t>(a.map);
        if (u >= lo && u < lo + a.map_bytes)
            return &a;
    }
    return nullptr;
}

const allocation *data_of(const void *p, size_t bytes)
{
    auto u = reinterpret_cast<uintptr_t>(p);
    auto it = allocations().upper_bound(u);
    if (it == allocations().end())
        return nullptr;
    const allocation &a = it->second;
    auto lo = reinterpret_cast<uintptr_t>(a.data);
    if (u < lo || u + bytes > lo + a.bytes)
        return nullptr;
    return &a;
}

// Lets the runtime itself touch device memory outside a kernel.
struct scoped_access {
    const allocation *a;
    explicit scoped_access(const allocation *a_) : a(a_) { if (a && !memory_open) set_access(*a, PROT_READ | PROT_WRITE); }
    ~scoped_access() { if (a && !memory_open) set_access(*a, PROT_NONE); }
};

}  // namespace

bool is_device_pointer(const void *p) { return data_of(p, 1) != nullptr; }
bool is_device_range(const void *p, size_t bytes) { return data_of(p, bytes ? bytes : 1) != nullptr; }

// The `__device__` variables of the program (register_device_variable).
static std::vector<std::pair<uintptr_t, size_t>> &device_variables()
{
    static std::vector<std::pair<uintptr_t, size_t>> all;
    return all;
}

bool register_device_variable(const void *address, size_t bytes)
{
    device_variables().emplace_back(reinterpret_cast<uintptr_t>(address), bytes);
    return true;
}

// Whether bytes of host memory are all zero: a copy of them to the device
// clears a buffer (as cudaMemset would) and carries nothing, so the ledger
// does not count it.
static bool all_zero(const void *p, size_t bytes)
{
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < bytes; i++)
        if (c[i])
            return false;
    return true;
}

// The `__device__` variable that holds [p, p + bytes), or null.
static const std::pair<uintptr_t, size_t> *device_variable_holding(const void *p, size_t bytes)
{
    auto u = reinterpret_cast<uintptr_t>(p);
    for (const auto &v : device_variables())
        if (u >= v.first && u + bytes <= v.first + v.second)
            return &v;
    return nullptr;
}

static size_t managed_variables = 0;

bool register_managed_variable(const void *, size_t)
{
    managed_variables++;
    return true;
}

// A kernel given host memory, as a GPU's kernel may be given pinned host
// memory, can move data between the device and the host with no copy at
// all; the grader counts such launches (sim_ledger_of), and the student
// is told once, since on a GPU a pointer from plain malloc faults.
void note_launch_pointers(const void *const *pointers, size_t count, const char *file, int line)
{
    static bool told = false;
    if (managed_variables) {
        host_pointer_launches++;  // no argument needed: the variables are in every kernel's reach
        return;
    }
    for (size_t i = 0; i < count; i++) {
        uintptr_t lo, hi;
        if (!pointers[i] || mapping_of(pointers[i]) || in_device_heap(pointers[i], &lo, &hi))
            continue;
        host_pointer_launches++;
        if (!told)
            report("%s:%d: kernel argument %zu is a pointer to host memory, not to memory cudaMalloc returned: "
                   "a GPU's kernel cannot read memory from malloc (an illegal address), and one given pinned "
                   "or managed memory reaches the host; A, B and C are device memory already",
                   short_file(file), line, i + 1);
        told = true;
        return;
    }
}

device_address classify_device_address(const void *p, size_t bytes, uintptr_t *lo, uintptr_t *hi, long *past)
{
    if (const allocation *a = data_of(p, bytes)) {
        *lo = reinterpret_cast<uintptr_t>(a->data);
        *hi = *lo + a->bytes;
        return device_address::inside;
    }
    if (const allocation *a = mapping_of(p)) {
        auto u = reinterpret_cast<intptr_t>(p), start = reinterpret_cast<intptr_t>(a->data);
        *past = u < start ? u - start : u - start - (intptr_t)a->bytes;
        return device_address::out_of_bounds;
    }
    if (const auto *v = device_variable_holding(p, bytes)) {
        *lo = v->first;
        *hi = v->first + v->second;
        return device_address::inside;
    }
    if (in_device_heap(p, lo, hi))
        return device_address::inside;
    return device_address::not_device;
}

void device_memory_open()
{
    for (auto &entry : allocations())
        set_access(entry.second, PROT_READ | PROT_WRITE);
    device_heap_open();
    memory_open = true;
}

void device_memory_close()
{
    for (auto &entry : allocations())
        set_access(entry.second, PROT_NONE);
    device_heap_close();
    memory_open = false;
}

// The first and last changed byte of a slack region, or false if none.
static bool changed_span(const char *p, size_t len, size_t *first, size_t *last)
{
    bool any = false;
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)p[i] != slack_canary) {
            if (!any)
                *first = i;
            *last = i;
            any = true;
        }
    }
    return any;
}

std::string check_allocation_bounds()
{
    for (auto &entry : allocations()) {
        const allocation &a = entry.second;
        scoped_access open(&a);
        std::string size = std::to_string(a.bytes) + "-byte device allocation";
        size_t first, last;
        if (changed_span(body(a), a.slack_before, &first, &last))
            return "a kernel wrote before the start of a " + size + " (from " +
                   std::to_string(a.slack_before - first) + " bytes before it: out of bounds)";
        size_t tail = round_up(a.bytes, alignment) - a.bytes;
        if (changed_span(a.data + a.bytes, tail, &first, &last))
            return "a kernel wrote past the end of a " + size + " (bytes " + std::to_string(a.bytes + first) +
                   " to " + std::to_string(a.bytes + last) + " were changed: out of bounds)";
    }
    return "";
}

std::string describe_address(const void *addr)
{
    const allocation *a = mapping_of(addr);
    uintptr_t block_lo, block_hi;
    if (!a && in_device_heap(addr, &block_lo, &block_hi))
        return "byte " + std::to_string(reinterpret_cast<uintptr_t>(addr) - block_lo) + " of a " +
               std::to_string(block_hi - block_lo) + "-byte block of the device's heap (malloc in a kernel)";
    if (!a)
        return "an address that is not device memory (a host pointer, a stale pointer or a wild index?)";
    auto u = reinterpret_cast<intptr_t>(addr);
    auto lo = reinterpret_cast<intptr_t>(a->data);
    if (a->name) {
        // One of the harness's matrices: an element by its row and column.
        std::string name = a->name;
        long rows = (long)(a->bytes / sizeof(float)) / a->columns;
        std::string shape = " (" + std::to_string(rows) + " x " + std::to_string(a->columns) + " floats)";
        if (u >= lo && u < lo + (intptr_t)a->bytes) {
            long i = (long)(u - lo) / (long)sizeof(float);
            if ((u - lo) % sizeof(float) == 0)
                return name + "[" + std::to_string(i / a->columns) + "][" + std::to_string(i % a->columns) + "]";
            return "byte " + std::to_string(u - lo) + " of " + name + shape;
        }
        if (u < lo)
            return std::to_string(lo - u) + " bytes before the start of " + name + shape + " (out of bounds)";
        return std::to_string(u - lo - (intptr_t)a->bytes) + " bytes past the end of " + name + shape +
               " (out of bounds)";
    }
    std::string size = std::to_string(a->bytes) + "-byte device allocation";
    if (u < lo)
        return std::to_string(lo - u) + " bytes before the start of a " + size + " (out of bounds)";
    if (u >= lo + (intptr_t)a->bytes)
        return std::to_string(u - lo - (intptr_t)a->bytes) + " bytes past the end of a " + size +
               " (byte offset " + std::to_string(u - lo) + ", out of bounds)";
    return "byte " + std::to_string(u - lo) + " of a " + size;
}

}  // namespace sim

using namespace sim;

extern "C" {

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return record_error(cudaErrorInvalidValue);
    if (sticky_error())
        return sticky_error();
    install_fault_handler();
    *ptr = nullptr;
    if (bytes == 0)
        return cudaSuccess;
    size_t page = page_size();
    size_t data_span = round_up(bytes, alignment);
    size_t body_span = round_up(data_span, page);
    allocation a;
    a.map_bytes = body_span + 2 * guard_bytes;
    void *m = mmap(nullptr, a.map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return record_error(cudaErrorMemoryAllocation);
    a.map = static_cast<char *>(m);
    a.bytes = bytes;
    a.slack_before = body_span - data_span;
    a.data = body(a) + a.slack_before;
    if (mprotect(body(a), body_span, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, a.map_bytes);
        return record_error(cudaErrorMemoryAllocation);
    }
    memset(body(a), slack_canary, a.slack_before);
    fill_with_nan(a.data, bytes);
    memset(a.data + bytes, slack_canary, data_span - bytes);
    if (!memory_open)
        mprotect(body(a), body_span, PROT_NONE);
    allocations()[reinterpret_cast<uintptr_t>(a.data) + a.bytes] = a;
    *ptr = a.data;
    return cudaSuccess;
}

void sim_name_allocation(const void *p, const char *name, int columns)
{
    for (auto &entry : allocations())
        if (entry.second.data == p && columns > 0 && entry.second.bytes % (sizeof(float) * columns) == 0) {
            entry.second.name = name;
            entry.second.columns = columns;
        }
}

cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!ptr || !pitch)
        return record_error(cudaErrorInvalidValue);
    const size_t row_alignment = 512;
    *pitch = round_up(width ? width : 1, row_alignment);
    return cudaMalloc(ptr, *pitch * height);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch) {
        report("cudaMemcpy2D: a row of %zu bytes is wider than the pitch (%zu to, %zu from)", width, dpitch, spitch);
        return record_error(cudaErrorInvalidValue);
    }
    for (size_t row = 0; row < height; row++) {
        cudaError_t e = cudaMemcpy(static_cast<char *>(dst) + row * dpitch,
                                   static_cast<const char *>(src) + row * spitch, width, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

// Managed memory is host memory here: the host reads and writes it
// directly, as it may on a GPU, so a kernel given it is given host memory
// (note_launch_pointers).  Kept apart so that cudaFree knows it.
static std::set<void *> &managed_blocks()
{
    static std::set<void *> all;
    return all;
}

cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int)
{
    if (!ptr)
        return record_error(cudaErrorInvalidValue);
    *ptr = bytes ? calloc(1, bytes) : nullptr;
    if (bytes && !*ptr)
        return record_error(cudaErrorMemoryAllocation);
    if (*ptr)
        managed_blocks().insert(*ptr);
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    if (!attributes)
        return record_error(cudaErrorInvalidValue);
    void *p = const_cast<void *>(ptr);
    bool managed = managed_blocks().count(p) != 0;  // by its start
    if (is_device_pointer(ptr) || device_variable_holding(ptr, 1))
        *attributes = {cudaMemoryTypeDevice, 0, p, nullptr};
    else if (managed)
        *attributes = {cudaMemoryTypeManaged, 0, p, p};
    else
        *attributes = {cudaMemoryTypeUnregistered, cudaInvalidDeviceId, nullptr, p};
    return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    if (managed_blocks().erase(ptr)) {
        free(ptr);
        return cudaSuccess;
    }
    auto u = reinterpret_cast<uintptr_t>(ptr);
    for (auto it = allocations().begin(); it != allocations().end(); ++it) {
        if (reinterpret_cast<uintptr_t>(it->second.data) == u) {
            munmap(it->second.map, it->second.map_bytes);
            allocations().erase(it);
            return cudaSuccess;
        }
    }
    report("cudaFree(%p): not a pointer cudaMalloc returned (or freed twice)", ptr);
    return record_error(cudaErrorInvalidValue);
}

}  // extern "C"

size_t sim::free_all_device_memory()
{
    size_t freed = allocations().size() + managed_blocks().size();
    device_heap_reset();
    for (auto &entry : allocations())
        munmap(entry.second.map, entry.second.map_bytes);
    allocations().clear();
    for (void *p : managed_blocks())
        free(p);
    managed_blocks().clear();
    return freed;
}

extern "C" {

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if (sticky_error())
        return sticky_error();
    if (bytes == 0)
        return cudaSuccess;
    if (!dst || !src)
        return record_error(cudaErrorInvalidValue);
    bool dst_dev = is_device_pointer(dst), src_dev = is_device_pointer(src);
    if (kind == cudaMemcpyDefault)
        kind = (cudaMemcpyKind)((src_dev ? 2 : 0) + (dst_dev ? 1 : 0));
    bool want_dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool want_src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((int)kind < 0 || (int)kind > 3) {
        report("cudaMemcpy: %d is not a cudaMemcpyKind", (int)kind);
        return record_error(cudaErrorInvalidMemcpyDirection);
    }
    if (want_dst_dev != dst_dev || want_src_dev != src_dev) {
        bool swapped = want_dst_dev == src_dev && want_src_dev == dst_dev;
        report("cudaMemcpy: the direction says %s to %s, but the destination is %s memory and the "
               "source is %s memory (%s)",
               want_src_dev ? "device" : "host", want_dst_dev ? "device" : "host",
               dst_dev ? "device" : "host", src_dev ? "device" : "host",
               swapped ? "are the arguments or the direction swapped?"
                       : "a pointer cudaMalloc never returned, or one freed since?");
        return record_error(cudaErrorInvalidValue);
    }
    const allocation *da = dst_dev ? data_of(dst, bytes) : nullptr;
    const allocation *sa = src_dev ? data_of(src, bytes) : nullptr;
    if ((dst_dev && !da) || (src_dev && !sa)) {
        report("cudaMemcpy: %zu bytes run past the end of the device allocation", bytes);
        return record_error(cudaErrorInvalidValue);
    }
    scoped_access open_dst(da), open_src(sa != da ? sa : nullptr);
    memmove(dst, src, bytes);
    // Into device memory from the host is counted, into C or anywhere else
    // (a product made on the host may reach C through a buffer a kernel
    // copies), unless every byte is zero; from device memory, a __device__
    // variable included (cudaMemcpyFromSymbol), it moves what kernels made,
    // and is not, nor is a copy into a __device__ variable from device
    // memory (cudaMemcpyToSymbol, which counts what it moves itself).
    if (da && !sa && !device_variable_holding(src, bytes) && !all_zero(src, bytes))
        copied_from_host += bytes;
    else if (sa && !da && !device_variable_holding(dst, bytes))
        copied_to_host += bytes;
    return cudaSuccess;
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    if (sticky_error())
        return sticky_error();
    if (bytes == 0)
        return cudaSuccess;
    const allocation *a = data_of(ptr, bytes);
    if (!a) {
        report("cudaMemset(%p, %d, %zu): not inside one device allocation", ptr, value, bytes);
        return record_error(cudaErrorInvalidValue);
    }
    scoped_access open(a);
    memset(ptr, value, bytes);
    return cudaSuccess;
}

sim_ledger sim_ledger_of() { return sim_ledger{copied_to_host, copied_from_host, host_pointer_launches}; }

void sim_count_symbol_copy(const void *other, size_t bytes, int into_symbol)
{
    if (is_device_pointer(other) || device_variable_holding(other, bytes))
        return; // device memory on both sides: what kernels made
    if (!into_symbol)
        copied_to_host += bytes;
    else if (!all_zero(other, bytes))
        copied_from_host += bytes;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!free_bytes || !total_bytes)
        return record_error(cudaErrorInvalidValue);
    // The simulator's device memory is the host's.
    size_t page = page_size();
    *total_bytes = (size_t)sysconf(_SC_PHYS_PAGES) * page;
    *free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * page;
    return cudaSuccess;
}

}  // extern "C"
