// nvcuda::wmma on the simulator: the rendezvous's answer to mma_sync, and
// the check of a fragment load's or store's pointer.  Which lane holds which
// element of a fragment is tensor_core_layout.h's.
//
// Each product of two TF32 operands is exact in a double, and the eight
// products and C's element are summed there, then rounded to float once: a
// tensor core's own sum rounds (and may truncate) along the way, so the last
// bits of a result can differ from a GPU's, within the tolerance the lessons
// derive for TF32 inputs.  Operands are read as a tensor core reads them,
// their 13 low mantissa bits dropped, whether or not __float_to_tf32 rounded
// them first.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "check_mode.h"
#include "engine.h"
#include "runtime_state.h"
#include "tensor_core_layout.h"
#include "warp_rules.h"

namespace sim {

bool mma_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, std::string *why)
{
    if (taking_part != 0xffffffffu) {
        unsigned missing = 0;
        while (taking_part >> missing & 1)
            missing++;
        *why = "wmma::mma_sync: lane " + std::to_string(missing) +
               " of the warp takes no part (it has returned, or the block ends inside the warp): every lane of a "
               "warp must reach a WMMA call together";
        return false;
    }
    const mma_operands &mine = *reinterpret_cast<const mma_operands *>((uintptr_t)calls[lane].value);
    auto operand = [&](fragment_use use, int row, int col) {
        fragment_slot s = fragment_slot_of(use, row, col);
        const mma_operands &theirs = *reinterpret_cast<const mma_operands *>((uintptr_t)calls[s.lane].value);
        return (double)tf32_operand((use == fragment_use::matrix_a ? theirs.a : theirs.b)[s.index]);
    };
    float out[fragment_elements(fragment_use::accumulator)];
    for (int i = 0; i < fragment_elements(fragment_use::accumulator); i++) {
        tile_place at = fragment_place(fragment_use::accumulator, lane, i);
        double sum = mine.c[i];
        for (int k = 0; k < tf32_k; k++)
            sum += operand(fragment_use::matrix_a, at.row, k) * operand(fragment_use::matrix_b, k, at.col);
        out[i] = (float)sum;
    }
    // D is written once every element is known: d and c may be one fragment.
    for (int i = 0; i < fragment_elements(fragment_use::accumulator); i++)
        mine.d[i] = out[i];
    if (check_enabled)
        check_tensor_core_macs(fragment_elements(fragment_use::accumulator) * tf32_k);
    return true;
}

void check_fragment_pointer(const void *p, unsigned ldm, const char *call)
{
    char why[256];
    if ((uintptr_t)p % 32 != 0)
        snprintf(why, sizeof why,
                 "%s at %p: the tile's first element must be 32-byte (256-bit) aligned, as CUDA requires of a "
                 "WMMA pointer",
                 call, p);
    else if (ldm % 4 != 0)
        snprintf(why, sizeof why,
                 "%s with ldm %u: the leading dimension must be a multiple of 4 floats (16 bytes), as CUDA requires",
                 call, ldm);
    else
        return;
    abandon_running_thread(cudaErrorMisalignedAddress, why);
}

} // namespace sim
