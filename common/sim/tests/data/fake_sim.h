// Just enough of the simulator's launch API (cuda_sim.h) for g++ to
// type-check rewritten launches, without building the simulator: used by
// rewrite_compiles.sh.
#include <cstddef>
#include <type_traits>

#define SIM_GLOBAL

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

typedef struct fake_stream *cudaStream_t;

template <class... A>
struct fake_launch {};

struct sim_cfg {
    sim_cfg(dim3, dim3, size_t = 0, cudaStream_t = nullptr) {}
    template <class... A>
    fake_launch<A...> operator()(A &&...) const { return {}; }
};

// Checks what the real operator% relies on: the kernel can be called with
// the launch's arguments.
template <class... P, class... A>
void operator%(void (*)(P...), fake_launch<A...>)
{
    static_assert(std::is_invocable_v<void (*)(P...), A...>,
                  "kernel cannot be called with these arguments");
}
