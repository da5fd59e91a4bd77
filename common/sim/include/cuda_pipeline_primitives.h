/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * The primitives of cp.async, the copy from global to shared memory that
 * does not pass through registers; see ../async_copy.cpp for when a copy
 * lands here. */
#ifndef SIM_CUDA_PIPELINE_PRIMITIVES_H
#define SIM_CUDA_PIPELINE_PRIMITIVES_H

#include "../cuda_sim.h"  /* the engine's calls below: ../engine.h */

/* Always inlined, so the copy's records name the kernel's line, not this one. */
/* CUDA's __pipeline_* names, as the launch rewriter spells them
 * (../cuda_spellings.h). */
__attribute__((always_inline)) inline void sim_pipeline_memcpy_async(void *dst_shared, const void *src_global,
                                                                     size_t size_and_align, size_t zfill = 0)
{
    sim::async_copy_issue(dst_shared, src_global, size_and_align, zfill);
}
inline void sim_pipeline_commit() { sim::async_copy_commit(); }
inline void sim_pipeline_wait_prior(size_t prior) { sim::async_copy_wait(prior); }

#endif
