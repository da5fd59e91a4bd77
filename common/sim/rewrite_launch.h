// Build-time rewrite of CUDA launches for the CPU simulator.
//
// g++ cannot parse `k<<<cfg>>>(args)`, so before compiling a lab's .cu file
// the build turns every launch into `k % sim_cfg(cfg)(args)` (see
// cuda_sim.h for what that expression does).  Only the `<<<` and its
// matching `>>>` change; every newline is kept and a `#line 1` header is
// written first, so compiler errors and __builtin_LINE() name the student's
// own file and line.  CUDA's reserved names in code (`__global__`,
// `__syncthreads`, ...) are renamed to the simulator's spellings on the way
// (cuda_spellings.h).  A dynamic shared declaration, `extern __shared__ T
// name[];`, becomes a pointer to the simulator's buffer (in a function) or a
// macro of that name followed by a `#line` (at file scope).
#ifndef SIM_REWRITE_LAUNCH_H
#define SIM_REWRITE_LAUNCH_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// Writes the rewritten form of src[0, len) to out.  display_path is the name
// put in the `#line` header and in error messages.  Returns 0 on success;
// otherwise nonzero with a one-line message "path:line: what" in err (when
// errlen > 0), and out may hold partial output, so callers that must not
// leave a half-written file should write to a temporary one.
int rewrite_launches(const char *src, size_t len, FILE *out, const char *display_path,
                     char *err, size_t errlen);

// Writes the table of spellings, one "simulator<TAB>cuda" pair a line, so
// tools can show a compiler's messages in CUDA's own names.
void print_spellings(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
