// What a lane's warp-level call (__shfl_*_sync, __ballot_sync, __any_sync,
// __all_sync, __reduce_*_sync, __match_*_sync, __syncwarp, wmma::mma_sync,
// mma_m16n8k8_tf32) carries to the rendezvous in launch.cpp.  A lab file includes this
// (through cuda_sim.h), so it holds the call's shape alone; the rules that
// answer it are warp_rules.h's, which need <string>, a fifth of a lab
// build's parsing.
#ifndef SIM_WARP_OPS_H
#define SIM_WARP_OPS_H

#include <cstdint>

namespace sim {

constexpr unsigned warp_lanes = 32;

enum class warp_op : unsigned char {
    sync, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all,
    // __reduce_*_sync (arg 1: min and max of signed values) and __match_*_sync.
    reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor, match_any, match_all,
    // nvcuda::wmma::mma_sync with TF32 inputs, and PTX's mma.sync m16n8k8
    // TF32 instruction as mma_tf32.h names it (value: the lane's mma_operands).
    mma_tf32, mma_tf32_m16n8k8
};

// A lane's fragments in an mma_sync or an m16n8k8 mma (tensor_core_layout.h
// orders their elements): it reads every lane's a and b, and writes its own
// d from them and its own c (d may be c).
struct mma_operands {
    const float *a, *b, *c;
    float *d;
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

} // namespace sim

#endif
