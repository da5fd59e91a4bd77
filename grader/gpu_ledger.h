/* Where C came from, on a GPU: what the student's matmul copied to the host
 * and from the host to the device, and the kernels it launched while host
 * memory was in their reach (gpu_ledger.cpp says how, and what it cannot see).  Used by
 * lab_exec's GPU build, which is linked so that the runtime calls counted
 * go through gpu_ledger.cpp first (common/build.mk). */
#ifndef GPU_LEDGER_H
#define GPU_LEDGER_H

#include "lab_exec_protocol.h"

/* Counting starts: matmul is about to run. */
void gpu_ledger_begin(void);
/* Counting stops; what moved since gpu_ledger_begin. */
matmul_ledger gpu_ledger_end(void);

#endif
