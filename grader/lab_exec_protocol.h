/* What lab_exec writes to the grader, per seed: a header (with, on the
 * simulator, what cudaMemcpy moved while matmul ran: C must be the
 * kernel's, not the host's), then (status 0 only) n*n floats of C, then A and B as they were in device memory after
 * matmul (the grader checks them bit for bit against the inputs it made:
 * a kernel must leave its inputs unchanged).  Shared by lab_exec and the
 * grader. */
#ifndef LAB_EXEC_PROTOCOL_H
#define LAB_EXEC_PROTOCOL_H

#include <stdint.h>

#define LAB_EXEC_RESULT_FD 3
#define LAB_EXEC_MAGIC "LAB3"

typedef struct {
    char magic[4];
    int32_t n;
    uint64_t seed;
    int32_t status;   /* cudaSuccess (0) or the CUDA error that stopped it */
    int32_t ledger;   /* 1: the backend kept the copy ledger below (the simulator) */
    uint64_t copied_to_host; /* bytes cudaMemcpy moved to the host while matmul ran */
    uint64_t copied_into_c;  /* bytes cudaMemcpy moved into C while matmul ran */
    char detail[240]; /* what failed, when status != 0 */
} lab_exec_header;

#endif
