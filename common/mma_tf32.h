/* One tensor-core instruction, called by name: PTX's
 *
 *     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
 *
 * which adds a 16x8 tile of A times an 8x8 tile of B to a 16x8 tile of C
 * for a whole warp, and cvt.rna.tf32.f32, which rounds a float to TF32.
 * Stage 10 lays the fragments out by hand and calls these two.
 *
 * Unlike WMMA's, this instruction's fragments have a documented layout
 * (PTX ISA, "Matrix Fragments for mma.m16n8k8"). Lane l of the warp is in
 * group g = l / 4 with rank t = l % 4, and holds
 *
 *   a[0] = A(g, t)     a[1] = A(g+8, t)     a[2] = A(g, t+4)     a[3] = A(g+8, t+4)
 *   b[0] = B(t, g)     b[1] = B(t+4, g)
 *   c[0] = C(g, 2t)    c[1] = C(g, 2t+1)    c[2] = C(g+8, 2t)    c[3] = C(g+8, 2t+1)
 *
 * (row, column of the warp's 16x8 A, 8x8 B and 16x8 C tiles); d as c.
 *
 * On a GPU each function is its one PTX instruction in inline assembly.
 * The simulator runs CUDA C++, not PTX, so there the same calls are
 * answered by the kit: the warp meets, as at wmma::mma_sync, and each
 * lane gets its part of D (common/sim/warp_mma.cpp). That is why a lab
 * calls these functions rather than writing the asm itself. */
#ifndef MMA_TF32_H
#define MMA_TF32_H

#include <cuda_runtime.h>
#include <stdint.h>

#ifdef CUDA_SIM_H /* the simulator's build: <cuda_runtime.h> was the kit's stand-in */
#include <cstring>

#include "sim/tensor_core_layout.h"

/* These two are plain C++ functions, without __device__: the simulator's
 * build turns CUDA's words into C++ in the lab file only, not in the
 * kit's headers.
 *
 * x rounded to the nearest TF32, ties away from zero, as the 32-bit
 * register a TF32 operand is. */
inline uint32_t tf32_bits(float x)
{
    return sim::float_bits(sim::round_to_tf32(x));
}

/* d = a b + c for the warp: every lane of the warp calls it together. */
inline void mma_m16n8k8_tf32(float d[4], const uint32_t a[4], const uint32_t b[2], const float c[4])
{
    float a_values[4], b_values[2];
    std::memcpy(a_values, a, sizeof a_values);
    std::memcpy(b_values, b, sizeof b_values);
    sim::mma_operands operands{a_values, b_values, c, d};
    sim::warp_collective(sim::warp_call{sim::warp_op::mma_tf32_m16n8k8, 0xffffffffu,
                                        (uint64_t)(uintptr_t)&operands, 0, 32});
}

#else /* nvcc */

/* TF32 operands came with compute capability 8.0 (Ampere): ptxas refuses
 * .tf32 for an older target with a message that names neither the GPU nor
 * the fix. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "mma_tf32.h: mma.sync with TF32 operands needs compute capability 8.0 or later; this build targets an older GPU (ARCH=80 or newer builds it, and BACKEND=sim runs it without a GPU)"
#endif

__device__ __forceinline__ uint32_t tf32_bits(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

__device__ __forceinline__ void mma_m16n8k8_tf32(float d[4], const uint32_t a[4], const uint32_t b[2],
                                                 const float c[4])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

#endif
#endif
