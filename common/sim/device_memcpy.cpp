// Copies of memory in a kernel, which check mode must see as the accesses
// they make, or a kernel could load A and B unseen (or seem to read shared
// words nothing wrote):
// - memcpy and memset, which CUDA provides in device code (with no header).
//   The build renames them in a lab file (cuda_spellings.h) to sim_memcpy
//   and sim_memset; outside a kernel they are the C library's own.
// - a copy of a whole structure or array, which clang compiles to its
//   llvm.memcpy intrinsic, invisible to the coverage hooks: a check build
//   calls sim_check_memcpy, _memmove and _memset in its place
//   (compile_checked.sh).
// Each copy is told to check mode as the widest accesses both addresses'
// alignment allows (16, 8, 4, 2 or 1 bytes), at the line that made it.
#include <cstdint>
#include <cstring>

#include "check_mode.h"
#include "engine.h"
#include "runtime_state.h"

namespace {

// The widest access (at most 16 bytes) that fits in `left` bytes and that
// every address in `addresses` is aligned for.
size_t access_width(uintptr_t addresses, size_t left)
{
    size_t width = 16;
    while (width > 1 && (width > left || addresses % width != 0))
        width /= 2;
    return width;
}

// Loads from src (unless it is null: a memset) and stores to dst, in the
// order a copy loop makes them.
void tell_check_mode(void *dst, const void *src, size_t bytes, void *site)
{
    if (!sim::check_enabled || !sim::in_kernel())
        return;
    auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
    for (size_t done = 0, width; done < bytes; done += width) {
        width = access_width((d + done) | (src ? s + done : 0), bytes - done);
        if (src)
            sim::check_access(reinterpret_cast<const void *>(s + done), (unsigned)width, false, site);
        sim::check_access(reinterpret_cast<const void *>(d + done), (unsigned)width, true, site);
    }
}

}  // namespace

extern "C" {

void *sim_memcpy(void *dst, const void *src, size_t bytes) noexcept
{
    tell_check_mode(dst, src, bytes, __builtin_return_address(0));
    return memcpy(dst, src, bytes);
}

void *sim_memset(void *dst, int value, size_t bytes) noexcept
{
    tell_check_mode(dst, nullptr, bytes, __builtin_return_address(0));
    return memset(dst, value, bytes);
}

// In place of clang's intrinsics, whose last argument (volatile or not)
// changes nothing here; memset's value is a byte, of which only the low 8
// bits of the register are defined.
void sim_check_memcpy(void *dst, const void *src, size_t bytes, int) noexcept
{
    tell_check_mode(dst, src, bytes, __builtin_return_address(0));
    memcpy(dst, src, bytes);
}

void sim_check_memmove(void *dst, const void *src, size_t bytes, int) noexcept
{
    tell_check_mode(dst, src, bytes, __builtin_return_address(0));
    memmove(dst, src, bytes);
}

void sim_check_memset(void *dst, int value, size_t bytes, int) noexcept
{
    tell_check_mode(dst, nullptr, bytes, __builtin_return_address(0));
    memset(dst, (unsigned char)value, bytes);
}

}  // extern "C"
