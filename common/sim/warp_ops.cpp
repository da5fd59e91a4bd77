// See warp_rules.h.  The shuffles' rules are those of the CUDA C++
// Programming Guide's warp shuffle functions: a segment of `width` lanes,
// a source outside the segment (or past its end) gives the lane its own
// value, and a source that takes no part gives an undefined one.
#include "warp_rules.h"

namespace sim {

const char *warp_op_name(warp_op op)
{
    switch (op) {
    case warp_op::sync: return "__syncwarp";
    case warp_op::shfl: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::ballot: return "__ballot_sync";
    case warp_op::any: return "__any_sync";
    case warp_op::all: return "__all_sync";
    case warp_op::reduce_add: return "__reduce_add_sync";
    case warp_op::reduce_min: return "__reduce_min_sync";
    case warp_op::reduce_max: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::match_all: return "__match_all_sync";
    case warp_op::mma_tf32: return "wmma::mma_sync";
    case warp_op::mma_tf32_m16n8k8: return "mma_m16n8k8_tf32";
    }
    return "a warp-level call";
}

namespace {

bool is_shuffle(warp_op op)
{
    return op == warp_op::shfl || op == warp_op::shfl_up || op == warp_op::shfl_down || op == warp_op::shfl_xor;
}

// The lane a shuffle reads, or `lane` itself when the rules give it its own value.
unsigned shuffle_source(const warp_call &c, unsigned lane)
{
    unsigned w = (unsigned)c.width, first = lane & ~(w - 1), offset = lane & (w - 1);
    switch (c.op) {
    case warp_op::shfl: return first + ((unsigned)c.arg & (w - 1));
    case warp_op::shfl_up: return offset < (unsigned)c.arg ? lane : lane - (unsigned)c.arg;
    case warp_op::shfl_down: return offset + (unsigned)c.arg >= w ? lane : lane + (unsigned)c.arg;
    case warp_op::shfl_xor: {
        unsigned source = lane ^ (unsigned)c.arg;
        return source >= first + w ? lane : source;  // a later segment: its own value
    }
    default: return lane;
    }
}

// A 32-bit reduction over the lanes taking part; min and max compare as
// signed when the values are ints.
uint64_t reduction(warp_op op, bool is_signed, const warp_call calls[warp_lanes], unsigned taking_part)
{
    uint32_t r = 0;
    bool first = true;
    for (unsigned l = 0; l < warp_lanes; l++) {
        if (!(taking_part >> l & 1))
            continue;
        uint32_t v = (uint32_t)calls[l].value;
        bool less = is_signed ? (int32_t)v < (int32_t)r : v < r;
        if (first) {
            r = v, first = false;
            continue;
        }
        switch (op) {
        case warp_op::reduce_add: r += v; break;
        case warp_op::reduce_min: r = less ? v : r; break;
        case warp_op::reduce_max: r = less || v == r ? r : v; break;
        case warp_op::reduce_and: r &= v; break;
        case warp_op::reduce_or: r |= v; break;
        default: r ^= v; break;
        }
    }
    return r;
}

} // namespace

bool warp_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, uint64_t *result,
                 std::string *why)
{
    const warp_call &c = calls[lane];
    if (c.op == warp_op::mma_tf32 || c.op == warp_op::mma_tf32_m16n8k8)
        return mma_result(calls, taking_part, lane, why);
    if (is_shuffle(c.op)) {
        if (c.width < 1 || c.width > (int)warp_lanes || (c.width & (c.width - 1)) != 0) {
            *why = std::string(warp_op_name(c.op)) + " with width " + std::to_string(c.width) +
                   ": the width must be a power of two from 1 to 32";
            return false;
        }
        unsigned source = shuffle_source(c, lane);
        if (!(taking_part >> source & 1)) {
            *why = "lane " + std::to_string(lane) + " read lane " + std::to_string(source) + "'s value with " +
                   warp_op_name(c.op) + ", but lane " + std::to_string(source) +
                   " takes no part in the call (it has returned, is not in the mask, or is past the end of the "
                   "block): on a GPU the value read is undefined";
            return false;
        }
        *result = calls[source].value;
        return true;
    }
    if (c.op >= warp_op::reduce_add && c.op <= warp_op::reduce_xor) {
        *result = reduction(c.op, c.arg == 1, calls, taking_part);
        return true;
    }
    if (c.op == warp_op::match_any || c.op == warp_op::match_all) {
        unsigned same = 0;
        for (unsigned l = 0; l < warp_lanes; l++)
            if ((taking_part >> l & 1) && calls[l].value == c.value)
                same |= 1u << l;
        *result = c.op == warp_op::match_any ? same : same == taking_part ? taking_part : 0;
        return true;
    }
    unsigned ballot = 0;
    if (c.op != warp_op::sync)
        for (unsigned l = 0; l < warp_lanes; l++)
            if ((taking_part >> l & 1) && calls[l].value != 0)
                ballot |= 1u << l;
    switch (c.op) {
    case warp_op::ballot: *result = ballot; break;
    case warp_op::any: *result = ballot != 0; break;
    case warp_op::all: *result = ballot == taking_part; break;
    default: *result = 0; break;
    }
    return true;
}

} // namespace sim
