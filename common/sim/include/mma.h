/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * Warp matrix multiply-accumulate (nvcuda::wmma) with TF32 inputs and float
 * accumulators, m16n16k8: the shape and types CUDA offers for TF32, the
 * kit's tensor-core lessons' subject.  Other shapes and types (half, bf16,
 * int8) are a limit of the simulator, said at compile time.
 *
 * A lane loads, stores and fills its own elements of a fragment (which ones:
 * ../tensor_core_layout.h); mma_sync is a warp-level call, so the whole warp
 * meets there (../warp_mma.cpp computes each lane's part of D). */
#ifndef SIM_MMA_H
#define SIM_MMA_H

#include "../cuda_sim.h"  /* the engine's calls below: ../engine.h */
#include "../tensor_core_layout.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
namespace precision {
struct tf32 {};
}  // namespace precision
enum layout_t { mem_row_major, mem_col_major };

namespace detail {
template <class Use> struct use_of;
template <> struct use_of<matrix_a> { static constexpr sim::fragment_use value = sim::fragment_use::matrix_a; };
template <> struct use_of<matrix_b> { static constexpr sim::fragment_use value = sim::fragment_use::matrix_b; };
template <> struct use_of<accumulator> { static constexpr sim::fragment_use value = sim::fragment_use::accumulator; };

// What the simulator runs: TF32 operands and float accumulators, m16n16k8.
// An operand of another type (CUDA's half, bf16 and integer fragments), or
// an accumulator of another shape or type (theirs), is the simulator's limit
// (common/sim/names_not_simulated.sh finds the message); a TF32 operand of
// another shape is the student's error, as nvcc's.
template <class Use, int m, int n, int k, class T>
struct supported {
    static constexpr bool shape = m == sim::tf32_m && n == sim::tf32_n && k == sim::tf32_k;
    static constexpr bool tf32_operand = !std::is_same<Use, accumulator>::value && std::is_same<T, precision::tf32>::value;
    static constexpr bool simulated = tf32_operand || (std::is_same<T, float>::value && shape);
};

// A fragment's storage: CUDA's public members (x, num_elements,
// element_type), the elements a lane holds.
template <int size>
struct fragment_base {
    typedef float element_type;
    typedef float storage_element_type;
    enum { num_elements = size };
    float x[size];
};
}  // namespace detail

template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment : public detail::fragment_base<sim::fragment_elements(detail::use_of<Use>::value)> {
    static_assert(detail::supported<Use, m, n, k, T>::simulated,
                  "the CPU simulator runs WMMA with TF32 inputs only (m16n16k8, float accumulators): CUDA's half, "
                  "bf16 and integer fragments are not simulated");
    static_assert(!detail::supported<Use, m, n, k, T>::tf32_operand || detail::supported<Use, m, n, k, T>::shape,
                  "wmma::fragment: TF32 operands come in m16n16k8 tiles only, in CUDA as here");
};

__attribute__((always_inline)) inline float sim_float_to_tf32(float f) { return sim::round_to_tf32(f); }

template <class Use, int m, int n, int k, class T, class Layout>
inline void fill_fragment(fragment<Use, m, n, k, T, Layout> &f, float value)
{
    for (int i = 0; i < f.num_elements; i++)
        f.x[i] = value;
}

namespace detail {
// The running thread's lane: its place in the block, x fastest, modulo 32.
inline unsigned current_lane()
{
    const uint3 t = sim::current_thread->thread_idx;
    const dim3 b = sim::current_block->block_dim;
    return (t.x + b.x * (t.y + b.y * t.z)) % 32u;
}

// Element (row, col) of a tile at p with leading dimension ldm.
inline size_t offset(int row, int col, unsigned ldm, bool row_major_layout)
{
    return row_major_layout ? (size_t)row * ldm + col : (size_t)col * ldm + row;
}

template <class Frag>
__attribute__((always_inline)) inline void load(Frag &f, sim::fragment_use use, const float *p, unsigned ldm,
                                                bool row_major_layout, const char *call)
{
    sim::check_fragment_pointer(p, ldm, call);
    unsigned lane = current_lane();
    for (int i = 0; i < f.num_elements; i++) {
        sim::tile_place at = sim::fragment_place(use, lane, i);
        f.x[i] = p[offset(at.row, at.col, ldm, row_major_layout)];
    }
}
}  // namespace detail

template <class Use, int m, int n, int k, class Layout>
__attribute__((always_inline)) inline void load_matrix_sync(fragment<Use, m, n, k, precision::tf32, Layout> &f,
                                                            const float *p, unsigned ldm)
{
    static_assert(std::is_same<Layout, row_major>::value || std::is_same<Layout, col_major>::value,
                  "a matrix_a or matrix_b fragment names its layout (wmma::row_major or wmma::col_major)");
    detail::load(f, detail::use_of<Use>::value, p, ldm, std::is_same<Layout, row_major>::value,
                 "wmma::load_matrix_sync");
}

template <int m, int n, int k>
__attribute__((always_inline)) inline void load_matrix_sync(fragment<accumulator, m, n, k, float> &f,
                                                            const float *p, unsigned ldm, layout_t layout)
{
    detail::load(f, sim::fragment_use::accumulator, p, ldm, layout == mem_row_major, "wmma::load_matrix_sync");
}

template <int m, int n, int k>
__attribute__((always_inline)) inline void store_matrix_sync(float *p, const fragment<accumulator, m, n, k, float> &f,
                                                             unsigned ldm, layout_t layout)
{
    sim::check_fragment_pointer(p, ldm, "wmma::store_matrix_sync");
    unsigned lane = detail::current_lane();
    for (int i = 0; i < f.num_elements; i++) {
        sim::tile_place at = sim::fragment_place(sim::fragment_use::accumulator, lane, i);
        p[detail::offset(at.row, at.col, ldm, layout == mem_row_major)] = f.x[i];
    }
}

// D = A B + C over the warp's tiles: every lane of the warp meets here.
template <int m, int n, int k, class LayoutA, class LayoutB>
inline void mma_sync(fragment<accumulator, m, n, k, float> &d,
                     const fragment<matrix_a, m, n, k, precision::tf32, LayoutA> &a,
                     const fragment<matrix_b, m, n, k, precision::tf32, LayoutB> &b,
                     const fragment<accumulator, m, n, k, float> &c)
{
    sim::mma_operands operands{a.x, b.x, c.x, d.x};
    sim::warp_collective(sim::warp_call{sim::warp_op::mma_tf32, 0xffffffffu,
                                        (uint64_t)(uintptr_t)&operands, 0, 32});
}

}  // namespace wmma
}  // namespace nvcuda

#endif
