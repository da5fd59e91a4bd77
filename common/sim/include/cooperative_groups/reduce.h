/* Simulator build: stands in for the CUDA toolkit's header of this name.
 *
 * cooperative_groups::reduce over a tile of up to a warp, and the
 * operations it takes.  Every thread of the tile gets the result, as on a
 * GPU; the values meet by the tile's own shuffles, so a lane that has
 * returned or a tile that is not whole fails the launch as a shuffle
 * would.  (On a GPU the order in which float values are combined is the
 * hardware's; any order is within the grader's tolerance.) */
#ifndef SIM_COOPERATIVE_GROUPS_REDUCE_H
#define SIM_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T>
struct less { T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T>
struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T>
struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T>
struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T>
struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

// Halves the distance each step: after log2(Size) exchanges every lane
// holds op over the whole tile.
template <unsigned Size, class Parent, class T, class Op>
T reduce(const thread_block_tile<Size, Parent> &tile, T value, Op op)
{
    for (unsigned distance = Size / 2; distance > 0; distance /= 2)
        value = op(value, tile.shfl_xor(value, distance));
    return value;
}

}  // namespace cooperative_groups

#endif
