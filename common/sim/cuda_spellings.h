// CUDA's names for its qualifiers and device functions, and the simulator's
// spelling of each.
//
// Names that begin with two underscores belong to the compiler and its
// standard library: libstdc++ 13, for one, writes `__attribute__((__noinline__))`
// in its own headers, so a simulator that defined `__noinline__` as a macro
// broke every file that included <memory> after it.  The simulator therefore
// never defines or declares any of these names.  The build step that rewrites
// launches (rewrite_launch.c) also renames each CUDA name in a lab file's code
// (never in its strings or comments) to the simulator's spelling, which
// cuda_sim.h and include/ define.  The grader maps the spellings back when it
// shows a compiler's messages, so a student reads the names they wrote.
//
// The macros a CUDA compiler defines are respelled too, so that a file
// which asks `#ifdef __CUDACC__` (to hide a launch from an editor) or
// `#if __CUDA_ARCH__ >= 800` (around its device code) compiles here as nvcc
// compiles it, while the system headers, which ask the same of their own
// (glibc and libstdc++ leave out __float128 under __CUDACC__), see the host
// compiler they were built for.
//
// malloc and free are renamed too, though they are the C library's: in a
// kernel they must take blocks of the device's heap (sim/device_heap.h),
// and outside one they are the host's own.  So are memcpy and memset, whose
// accesses in a kernel check mode must count (sim/device_memcpy.cpp), and
// printf, which must print an atomic's old value as the value (cuda_sim.h).
//
// So are the math functions CUDA adds without underscores (rsqrtf, sinpif,
// umin, ...): a newer C library declares some of them itself (glibc 2.41
// has sinpif), and the simulator's own must not collide with those.
#ifndef SIM_CUDA_SPELLINGS_H
#define SIM_CUDA_SPELLINGS_H

// X(cuda_name, simulator_name)
#define SIM_CUDA_SPELLINGS(X)                           \
    X(__global__, SIM_GLOBAL)                           \
    X(__device__, SIM_DEVICE)                           \
    X(__host__, SIM_HOST)                               \
    X(__shared__, SIM_SHARED)                           \
    X(__constant__, SIM_CONSTANT)                       \
    X(__managed__, SIM_MANAGED)                         \
    X(__forceinline__, SIM_FORCEINLINE)                 \
    X(__noinline__, SIM_NOINLINE)                       \
    X(__launch_bounds__, SIM_LAUNCH_BOUNDS)             \
    X(__align__, SIM_ALIGN)                             \
    X(__CUDACC__, SIM_CUDACC)                           \
    X(__NVCC__, SIM_NVCC)                               \
    X(__CUDA_ARCH__, SIM_CUDA_ARCH)                     \
    X(__CUDACC_VER_MAJOR__, SIM_CUDACC_VER_MAJOR)   \
    X(__CUDACC_VER_MINOR__, SIM_CUDACC_VER_MINOR)   \
    X(malloc, sim_kernel_malloc)                        \
    X(free, sim_kernel_free)                            \
    X(memcpy, sim_memcpy)                               \
    X(memset, sim_memset)                               \
    X(printf, sim_printf)                               \
    X(__syncthreads, sim_syncthreads)                   \
    X(__syncthreads_count, sim_syncthreads_count)       \
    X(__syncthreads_and, sim_syncthreads_and)           \
    X(__syncthreads_or, sim_syncthreads_or)             \
    X(__threadfence, sim_threadfence)                   \
    X(__threadfence_block, sim_threadfence_block)       \
    X(__float_to_tf32, sim_float_to_tf32)               \
    X(__nanosleep, sim_nanosleep)                       \
    X(__ldg, sim_ldg)                                   \
    X(__ldca, sim_ldca)                                 \
    X(__ldcg, sim_ldcg)                                 \
    X(__ldcs, sim_ldcs)                                 \
    X(__ldlu, sim_ldlu)                                 \
    X(__ldcv, sim_ldcv)                                 \
    X(__stwb, sim_stwb)                                 \
    X(__stcg, sim_stcg)                                 \
    X(__stcs, sim_stcs)                                 \
    X(__stwt, sim_stwt)                                 \
    X(__fmul_rn, sim_fmul_rn)                           \
    X(__fadd_rn, sim_fadd_rn)                           \
    X(__fmaf_rn, sim_fmaf_rn)                           \
    X(__fsub_rn, sim_fsub_rn)                           \
    X(__fdiv_rn, sim_fdiv_rn)                           \
    X(__frcp_rn, sim_frcp_rn)                           \
    X(__fsqrt_rn, sim_fsqrt_rn)                         \
    X(__fdividef, sim_fdividef)                         \
    X(__expf, sim_expf)                                 \
    X(__logf, sim_logf)                                 \
    X(__sinf, sim_sinf)                                 \
    X(__cosf, sim_cosf)                                 \
    X(__powf, sim_powf)                                 \
    X(__saturatef, sim_saturatef)                       \
    X(__float_as_int, sim_float_as_int)                 \
    X(__int_as_float, sim_int_as_float)                 \
    X(__float_as_uint, sim_float_as_uint)               \
    X(__uint_as_float, sim_uint_as_float)               \
    X(__popc, sim_popc)                                 \
    X(__clz, sim_clz)                                   \
    X(__ffs, sim_ffs)                                   \
    X(__popcll, sim_popcll)                             \
    X(__clzll, sim_clzll)                               \
    X(__ffsll, sim_ffsll)                               \
    X(__brev, sim_brev)                                 \
    X(__mul24, sim_mul24)                               \
    X(__umul24, sim_umul24)                             \
    X(__mulhi, sim_mulhi)                               \
    X(__umulhi, sim_umulhi)                             \
    X(__float2int_rn, sim_float2int_rn)                 \
    X(__float2int_rz, sim_float2int_rz)                 \
    X(__float2uint_rn, sim_float2uint_rn)               \
    X(__float2uint_rz, sim_float2uint_rz)               \
    X(__int2float_rn, sim_int2float_rn)                 \
    X(__uint2float_rn, sim_uint2float_rn)               \
    X(__threadfence_system, sim_threadfence_system) \
    X(__fmaf_ieee_rn, sim_fmaf_ieee_rn)             \
    X(__dmul_rn, sim_dmul_rn)                       \
    X(__dadd_rn, sim_dadd_rn)                       \
    X(__dsub_rn, sim_dsub_rn)                       \
    X(__ddiv_rn, sim_ddiv_rn)                       \
    X(__drcp_rn, sim_drcp_rn)                       \
    X(__dsqrt_rn, sim_dsqrt_rn)                     \
    X(__fma_rn, sim_fma_rn)                         \
    X(__frsqrt_rn, sim_frsqrt_rn)                   \
    X(__tanf, sim_tanf)                             \
    X(__exp10f, sim_exp10f)                         \
    X(__log2f, sim_log2f)                           \
    X(__log10f, sim_log10f)                         \
    X(__sincosf, sim_sincosf)                       \
    X(__float2int_rd, sim_float2int_rd)             \
    X(__float2int_ru, sim_float2int_ru)             \
    X(__float2uint_rd, sim_float2uint_rd)           \
    X(__float2uint_ru, sim_float2uint_ru)           \
    X(__float2ll_rn, sim_float2ll_rn)               \
    X(__float2ll_rz, sim_float2ll_rz)               \
    X(__float2ll_rd, sim_float2ll_rd)               \
    X(__float2ll_ru, sim_float2ll_ru)               \
    X(__float2ull_rn, sim_float2ull_rn)             \
    X(__float2ull_rz, sim_float2ull_rz)             \
    X(__float2ull_rd, sim_float2ull_rd)             \
    X(__float2ull_ru, sim_float2ull_ru)             \
    X(__double2int_rn, sim_double2int_rn)           \
    X(__double2int_rz, sim_double2int_rz)           \
    X(__double2int_rd, sim_double2int_rd)           \
    X(__double2int_ru, sim_double2int_ru)           \
    X(__double2uint_rn, sim_double2uint_rn)         \
    X(__double2uint_rz, sim_double2uint_rz)         \
    X(__double2uint_rd, sim_double2uint_rd)         \
    X(__double2uint_ru, sim_double2uint_ru)         \
    X(__double2ll_rn, sim_double2ll_rn)             \
    X(__double2ll_rz, sim_double2ll_rz)             \
    X(__double2ll_rd, sim_double2ll_rd)             \
    X(__double2ll_ru, sim_double2ll_ru)             \
    X(__double2ull_rn, sim_double2ull_rn)           \
    X(__double2ull_rz, sim_double2ull_rz)           \
    X(__double2ull_rd, sim_double2ull_rd)           \
    X(__double2ull_ru, sim_double2ull_ru)           \
    X(__ll2float_rn, sim_ll2float_rn)               \
    X(__ull2float_rn, sim_ull2float_rn)             \
    X(__double2float_rn, sim_double2float_rn)       \
    X(__int2double_rn, sim_int2double_rn)           \
    X(__uint2double_rn, sim_uint2double_rn)         \
    X(__ll2double_rn, sim_ll2double_rn)             \
    X(__ull2double_rn, sim_ull2double_rn)           \
    X(__double_as_longlong, sim_double_as_longlong) \
    X(__longlong_as_double, sim_longlong_as_double) \
    X(__double2hiint, sim_double2hiint)             \
    X(__double2loint, sim_double2loint)             \
    X(__hiloint2double, sim_hiloint2double)         \
    X(__brevll, sim_brevll)                         \
    X(__byte_perm, sim_byte_perm)                   \
    X(__funnelshift_l, sim_funnelshift_l)           \
    X(__funnelshift_lc, sim_funnelshift_lc)         \
    X(__funnelshift_r, sim_funnelshift_r)           \
    X(__funnelshift_rc, sim_funnelshift_rc)         \
    X(__mul64hi, sim_mul64hi)                       \
    X(__umul64hi, sim_umul64hi)                     \
    X(__sad, sim_sad)                               \
    X(__usad, sim_usad)                             \
    X(__hadd, sim_hadd)                             \
    X(__rhadd, sim_rhadd)                           \
    X(__uhadd, sim_uhadd)                           \
    X(__urhadd, sim_urhadd)                         \
    X(rsqrtf, sim_rsqrtf)                           \
    X(rsqrt, sim_rsqrt)                             \
    X(rcbrtf, sim_rcbrtf)                           \
    X(rcbrt, sim_rcbrt)                             \
    X(sinpif, sim_sinpif)                           \
    X(sinpi, sim_sinpi)                             \
    X(cospif, sim_cospif)                           \
    X(cospi, sim_cospi)                             \
    X(sincospif, sim_sincospif)                     \
    X(sincospi, sim_sincospi)                       \
    X(rhypotf, sim_rhypotf)                         \
    X(rhypot, sim_rhypot)                           \
    X(norm3df, sim_norm3df)                         \
    X(norm3d, sim_norm3d)                           \
    X(norm4df, sim_norm4df)                         \
    X(norm4d, sim_norm4d)                           \
    X(rnorm3df, sim_rnorm3df)                       \
    X(rnorm3d, sim_rnorm3d)                         \
    X(rnorm4df, sim_rnorm4df)                       \
    X(rnorm4d, sim_rnorm4d)                         \
    X(fdividef, sim_fdividef_plain)                 \
    X(fdivide, sim_fdivide)                         \
    X(umin, sim_umin)                               \
    X(umax, sim_umax)                               \
    X(llmin, sim_llmin)                             \
    X(llmax, sim_llmax)                             \
    X(ullmin, sim_ullmin)                           \
    X(ullmax, sim_ullmax)                           \
    X(__pipeline_memcpy_async, sim_pipeline_memcpy_async) \
    X(__pipeline_commit, sim_pipeline_commit)           \
    X(__pipeline_wait_prior, sim_pipeline_wait_prior)   \
    X(__syncwarp, sim_warp_syncwarp)                    \
    X(__shfl_sync, sim_warp_shfl_sync)                  \
    X(__shfl_up_sync, sim_warp_shfl_up_sync)            \
    X(__shfl_down_sync, sim_warp_shfl_down_sync)        \
    X(__shfl_xor_sync, sim_warp_shfl_xor_sync)          \
    X(__ballot_sync, sim_warp_ballot_sync)              \
    X(__any_sync, sim_warp_any_sync)                    \
    X(__all_sync, sim_warp_all_sync)                    \
    X(__reduce_add_sync, sim_warp_reduce_add_sync)  \
    X(__reduce_min_sync, sim_warp_reduce_min_sync)  \
    X(__reduce_max_sync, sim_warp_reduce_max_sync)  \
    X(__reduce_and_sync, sim_warp_reduce_and_sync)  \
    X(__reduce_or_sync, sim_warp_reduce_or_sync)    \
    X(__reduce_xor_sync, sim_warp_reduce_xor_sync)  \
    X(__match_any_sync, sim_warp_match_any_sync)    \
    X(__match_all_sync, sim_warp_match_all_sync)    \
    X(__activemask, sim_warp_activemask)

#endif
