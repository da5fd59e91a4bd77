// memcpy and memset in a kernel.  CUDA provides both in device code (with
// no header), and a kernel may copy with them: a row of A into a shared tile,
// or a float's bits into an int.  The build renames them in a lab file
// (cuda_spellings.h) to sim_memcpy and sim_memset, which are the C library's
// own outside a kernel.  Inside one, check mode must see what they move, or
// a kernel that read A and B through memcpy would load nothing as far as
// the counters know: each copy is told to it as the widest accesses both
// addresses' alignment allows (16, 8, 4, 2 or 1 bytes), at the line that
// called memcpy, as a GPU moves it.
#include <cstdint>
#include <cstring>

#include "check_mode.h"
#include "cuda_sim.h"
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

}  // namespace

extern "C" void *sim_memcpy(void *dst, const void *src, size_t bytes) noexcept
{
    if (sim::check_enabled && sim::in_kernel()) {
        void *site = __builtin_return_address(0);
        auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
        for (size_t done = 0, width; done < bytes; done += width) {
            width = access_width((d + done) | (s + done), bytes - done);
            sim::check_access(reinterpret_cast<const void *>(s + done), (unsigned)width, false, site);
            sim::check_access(reinterpret_cast<const void *>(d + done), (unsigned)width, true, site);
        }
    }
    return memcpy(dst, src, bytes);
}

extern "C" void *sim_memset(void *dst, int value, size_t bytes) noexcept
{
    if (sim::check_enabled && sim::in_kernel()) {
        void *site = __builtin_return_address(0);
        auto d = reinterpret_cast<uintptr_t>(dst);
        for (size_t done = 0, width; done < bytes; done += width) {
            width = access_width(d + done, bytes - done);
            sim::check_access(reinterpret_cast<const void *>(d + done), (unsigned)width, true, site);
        }
    }
    return memset(dst, value, bytes);
}
