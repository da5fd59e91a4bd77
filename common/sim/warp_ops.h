// What each lane gets back from a warp-level call (__shfl_*_sync,
// __ballot_sync, __any_sync, __all_sync, __reduce_*_sync, __match_*_sync,
// __syncwarp), once every lane of
// its mask has arrived: CUDA's rules, apart from the rendezvous itself
// (launch.cpp), so they can be tested alone.
#ifndef SIM_WARP_OPS_H
#define SIM_WARP_OPS_H

#include <cstdint>
#include <string>

namespace sim {

constexpr unsigned warp_lanes = 32;

enum class warp_op : unsigned char {
    sync, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all,
    // __reduce_*_sync (arg 1: min and max of signed values) and __match_*_sync.
    reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor, match_any, match_all
};

// One lane's call: what it asked and what it brought (up to 8 bytes of any
// type, as bits).
struct warp_call {
    warp_op op = warp_op::sync;
    unsigned mask = 0;
    uint64_t value = 0;
    int arg = 0;    // srcLane, delta or laneMask; 1 for a signed reduction
    int width = 32; // the shuffles' segment width
};

// The name a student wrote, for messages.
const char *warp_op_name(warp_op op);

// What `lane` gets back, given every lane's call (calls[l] is meaningful
// where bit l of `taking_part` is set: the lanes of the mask that arrived).
// False, with why, when CUDA leaves the answer undefined: a shuffle from a
// lane that takes no part, a width that is not a power of two up to 32.
bool warp_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, uint64_t *result,
                 std::string *why);

} // namespace sim

#endif
