// Which lane of a warp holds which element of a tensor-core fragment, for
// the one shape CUDA's WMMA offers with TF32 inputs (m16n16k8), and TF32's
// rounding.  Shared by include/mma.h (a lane loads and stores its own
// elements), ../mma_tf32.h (PTX's m16n8k8, whose fragments are the first
// half of each below: B's x[0..1], C's x[0..3]) and warp_mma.cpp (the
// rendezvous of either call reads every lane's).
//
// CUDA leaves a WMMA fragment's element order unspecified, so any order is
// CUDA's; the simulator takes the one PTX documents for mma.sync's
// m16n8k8 TF32 instruction, used twice side by side for the 16 columns
// (in arithmetic a WMMA m16n16k8 product is two of them).  Lane l is
// in group g = l / 4 and has rank t = l % 4 in it:
//
//   A, 16 x 8 (rows x k):    x[0] (g, t)     x[1] (g+8, t)    x[2] (g, t+4)    x[3] (g+8, t+4)
//   B, 8 x 16 (k x cols):    x[2h] (t, 8h+g)  x[2h+1] (t+4, 8h+g)                 for h = 0, 1
//   C, 16 x 16:              x[4h] (g, 8h+2t)  x[4h+1] (g, 8h+2t+1)  x[4h+2] (g+8, 8h+2t)  x[4h+3] (g+8, 8h+2t+1)
//
// An H200 (CUDA 13.0) lays WMMA's TF32 fragments out just so: each lane's
// x[i] of A, B and C held these elements (agreement/tensor_cores.cu).  A fragment
// load's shared-memory requests here are that pattern, element by element
// (eight rows of four words for A: an unpadded stride of 8 floats puts rows
// g and g+4 in one bank); the GPU's own load instructions may group them
// otherwise, so the lessons and the grader count on results, never on this
// order.
#ifndef SIM_TENSOR_CORE_LAYOUT_H
#define SIM_TENSOR_CORE_LAYOUT_H

#include <cstdint>
#include <cstring>

namespace sim {

enum class fragment_use : unsigned char { matrix_a, matrix_b, accumulator };

constexpr int tf32_m = 16, tf32_n = 16, tf32_k = 8;

// Elements a lane holds of each fragment: a tile's elements over 32 lanes.
constexpr int fragment_elements(fragment_use use)
{
    return use == fragment_use::matrix_a ? tf32_m * tf32_k / 32
           : use == fragment_use::matrix_b ? tf32_k * tf32_n / 32
                                           : tf32_m * tf32_n / 32;
}

// The tile coordinates (row, column) of element i of lane's fragment.
struct tile_place { int row, col; };
inline tile_place fragment_place(fragment_use use, unsigned lane, int i)
{
    int g = (int)(lane >> 2), t = (int)(lane & 3);
    switch (use) {
    case fragment_use::matrix_a: return {g + 8 * (i & 1), t + 4 * (i >> 1)};
    case fragment_use::matrix_b: return {t + 4 * (i & 1), 8 * (i >> 1) + g};
    default: return {g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * t + (i & 1)};
    }
}

// The other way: the lane and element that hold (row, col) of a tile.
struct fragment_slot { unsigned lane; int index; };
inline fragment_slot fragment_slot_of(fragment_use use, int row, int col)
{
    switch (use) {
    case fragment_use::matrix_a:
        return {(unsigned)((row & 7) * 4 + (col & 3)), (row >> 3) + 2 * (col >> 2)};
    case fragment_use::matrix_b:
        return {(unsigned)((col & 7) * 4 + (row & 3)), 2 * (col >> 3) + (row >> 2)};
    default:
        return {(unsigned)((row & 7) * 4 + ((col & 7) >> 1)), 4 * (col >> 3) + 2 * (row >> 3) + (col & 1)};
    }
}

inline uint32_t float_bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_float(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// TF32 keeps float's sign and 8-bit exponent and the top 10 of its 23
// mantissa bits.  __float_to_tf32 rounds to the nearest, ties away from
// zero (PTX's cvt.rna.tf32.f32); an infinity passes unchanged and a NaN
// loses its low 13 bits, as an H200 does (agreement/tensor_cores.cu).
inline float round_to_tf32(float f)
{
    uint32_t u = float_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u)
        return bits_float(u & 0xffffe000u);
    return bits_float((u + 0x1000u) & 0xffffe000u);
}

// What a tensor core reads of a float it is given as TF32: the low 13
// mantissa bits are dropped (a NaN stays a NaN).
inline float tf32_operand(float f)
{
    uint32_t u = float_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u)
        return f;
    return bits_float(u & 0xffffe000u);
}

} // namespace sim

#endif
