/* What every lab file includes: the CUDA runtime (or, on the simulator
 * backend, the kit's stand-in for it), the error-check macro, and the one
 * function each lab defines. */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime.h>

#include "cuda_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = A · B for n×n row-major float matrices.  A, B and C are device
 * pointers; matmul launches its kernel(s) and returns without waiting. */
void matmul(const float *A, const float *B, float *C, int n);

#ifdef __cplusplus
}
#endif

#endif
