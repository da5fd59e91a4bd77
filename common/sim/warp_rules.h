// What each lane gets back from a warp-level call, once every lane of its
// mask has arrived: CUDA's rules, apart from the rendezvous itself
// (launch.cpp), so they can be tested alone.  The engine's side of
// warp_ops.h: a lab file never includes it.
#ifndef SIM_WARP_RULES_H
#define SIM_WARP_RULES_H

#include <cstdint>
#include <string>

#include "warp_ops.h"

namespace sim {

// The name a student wrote, for messages.
const char *warp_op_name(warp_op op);

// What `lane` gets back, given every lane's call (calls[l] is meaningful
// where bit l of `taking_part` is set: the lanes of the mask that arrived).
// False, with why, when CUDA leaves the answer undefined: a shuffle from a
// lane that takes no part, a width that is not a power of two up to 32.
bool warp_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, uint64_t *result,
                 std::string *why);

// mma_sync's part of warp_result (warp_mma.cpp): writes lane's fragment D.
bool mma_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, std::string *why);

} // namespace sim

#endif
