// Launch forms the rewriter must turn into valid C++.  rewrite_compiles.sh
// rewrites this file and type-checks it against fake_sim.h; it is never run.
#include <algorithm>
#include <cstdio>

__global__ void add_one(float *x, int n)
{
    (void)x;
    (void)n;
}

template <typename T, int N>
__global__ void scale(T *x, T by)
{
    (void)x;
    (void)by;
}

namespace ops {
__global__ void fill(int *x, int v)
{
    (void)x;
    (void)v;
}
}  // namespace ops

template <int B>
int blocks_for(int n) { return (n + B - 1) / B; }

template <int B>
struct per { static constexpr int value = B; };

template <class P>
struct twice { static constexpr int value = 2 * P::value; };

template <class P>
int grid_for(int n) { return (n + P::value - 1) / P::value; }

int main()
{
    float *x = nullptr;
    int *ix = nullptr;
    int n = 1000;
    cudaStream_t stream = nullptr;

    std::puts("add_one<<<1, 1>>>(x, n) is a launch");  // not rewritten
    add_one<<<(n + 255) / 256, 256>>>(x, n);
    add_one<<<n >> 8, 256>>>(x, n << 1);
    scale<float, 4><<<dim3(4, 4), dim3(16, 16), 0, stream>>>(x, 2.0f);
    ops::fill<<<std::max<int>(1, n / 32), 32>>>(ix, 7);
    ops::fill<<<blocks_for<256>(n), 256, 64>>>(ix, 'a');
    add_one<<<grid_for<per<256>>(n), 256>>>(x, n);
    add_one<<<grid_for<twice<per<128>>>(n), 256>>>(x, n);  // `>>>` ends a template
    add_one<<<
        dim3(n / 16,
             2),
        dim3(16, 16)>>>(x,
                        n);
    return 0;
}
