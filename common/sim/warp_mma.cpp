// Tensor cores on the simulator: the rendezvous's answer to wmma::mma_sync
// (m16n16k8) and to mma_tf32.h's mma_m16n8k8_tf32 (PTX's m16n8k8, the left
// half of the same product), and the check of a WMMA fragment load's or
// store's pointer.  Which lane holds which element of a fragment is
// tensor_core_layout.h's; the m16n8k8 fragments are the first half of each
// m16n16k8 one (the first 2 elements of B, the first 4 of C).
//
// Each product of two TF32 operands is exact in a double, and the eight
// products and C's element are summed there, then rounded to float once: a
// tensor core's own sum rounds (and may truncate) along the way, so the last
// bits of a result can differ from a GPU's, within the tolerance the lessons
// derive for TF32 inputs.  Operands are read as a tensor core reads them,
// their 13 low mantissa bits dropped, whether or not __float_to_tf32 (or
// tf32_bits) rounded them first.
//
// SIM_MMA_PRODUCT_SCALE=2 (the grader's tensor-core probe) doubles every
// product either call adds, so a C made by mma_sync alone comes out exactly
// twice the product (doubling is exact in binary floating point, and every
// accumulator starts at zero); a C made some other way, by FP32
// multiply-adds beside a few mma_sync calls, does not.  The setting is read
// and taken out of the environment before main, so the program's own code
// cannot see it.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "check_mode.h"
#include "engine.h"
#include "runtime_state.h"
#include "tensor_core_layout.h"
#include "warp_rules.h"

namespace sim {

namespace {
double read_product_scale()
{
    const char *env = getenv("SIM_MMA_PRODUCT_SCALE");
    double scale = env && strcmp(env, "2") == 0 ? 2.0 : 1.0;
    unsetenv("SIM_MMA_PRODUCT_SCALE");
    return scale;
}
const double product_scale = read_product_scale();
} // namespace

bool mma_result(const warp_call calls[warp_lanes], unsigned taking_part, unsigned lane, std::string *why)
{
    const bool wmma = calls[lane].op == warp_op::mma_tf32;
    if (taking_part != 0xffffffffu) {
        unsigned missing = 0;
        while (taking_part >> missing & 1)
            missing++;
        *why = std::string(wmma ? "wmma::mma_sync" : "mma_m16n8k8_tf32") + ": lane " + std::to_string(missing) +
               " of the warp takes no part (it has returned, or the block ends inside the warp): every lane of a "
               "warp must reach a tensor-core call together";
        return false;
    }
    // Columns of B and C: 16 for WMMA's m16n16k8, 8 for m16n8k8, whose
    // fragments are the first b_elements and c_elements of WMMA's in
    // tensor_core_layout.h's order (columns 0..7).  At m16n8k8 the tile b
    // below keeps an earlier call's columns 8..15; no element of C read
    // here reaches them.
    const int columns = wmma ? tf32_n : tf32_n / 2;
    const int b_elements = fragment_elements(fragment_use::matrix_b) * columns / tf32_n;
    const int c_elements = fragment_elements(fragment_use::accumulator) * columns / tf32_n;
    // The warp's whole A (16 x 8) and B (8 x columns) tiles, gathered from
    // the lanes' fragments once per call: the meeting asks for each lane's
    // answer in turn, lane 0 first (launch.cpp), and every lane's answer
    // reads the same tiles.
    static thread_local double a[tf32_m][tf32_k], b[tf32_k][tf32_n];
    if (lane == 0) {
        for (unsigned l = 0; l < warp_lanes; l++) {
            const mma_operands &theirs = *reinterpret_cast<const mma_operands *>((uintptr_t)calls[l].value);
            for (int i = 0; i < fragment_elements(fragment_use::matrix_a); i++) {
                tile_place at = fragment_place(fragment_use::matrix_a, l, i);
                a[at.row][at.col] = tf32_operand(theirs.a[i]);
            }
            for (int i = 0; i < b_elements; i++) {
                tile_place at = fragment_place(fragment_use::matrix_b, l, i);
                b[at.row][at.col] = tf32_operand(theirs.b[i]);
            }
        }
    }
    const mma_operands &mine = *reinterpret_cast<const mma_operands *>((uintptr_t)calls[lane].value);
    float out[fragment_elements(fragment_use::accumulator)];
    for (int i = 0; i < c_elements; i++) {
        tile_place at = fragment_place(fragment_use::accumulator, lane, i);
        double products = 0;
        for (int k = 0; k < tf32_k; k++)
            products += a[at.row][k] * b[k][at.col];
        out[i] = (float)(mine.c[i] + product_scale * products);
    }
    // D is written once every element is known: d and c may be one fragment.
    for (int i = 0; i < c_elements; i++)
        mine.d[i] = out[i];
    if (check_enabled)
        check_tensor_core_macs(c_elements * tf32_k);
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
