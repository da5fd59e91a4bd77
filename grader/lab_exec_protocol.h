/* What lab_exec writes to the grader, per seed: a header (with the ledger
 * of what moved between host and device while matmul ran: C must be the
 * kernel's, not the host's), then (status 0 only) n*n floats of C, then A
 * and B as they were in device memory after matmul (the grader checks them
 * bit for bit against the inputs it made: a kernel must leave its inputs
 * unchanged).  Shared by lab_exec and the grader. */
#ifndef LAB_EXEC_PROTOCOL_H
#define LAB_EXEC_PROTOCOL_H

#include <stdint.h>

#define LAB_EXEC_RESULT_FD 3
#define LAB_EXEC_MAGIC "LAB4"

/* Where data went while matmul ran (the simulator's count, or a GPU build's). */
typedef struct {
    uint64_t copied_to_host;        /* bytes copied from the device to the host */
    uint64_t copied_from_host;      /* bytes copied from the host into device memory (C, a buffer, a symbol) */
    uint64_t host_pointer_launches; /* kernel launches given a pointer to host memory */
} matmul_ledger;

/* Who kept a result's ledger. */
enum {
    LEDGER_NONE = 0,      /* nobody: the grader asks the check build */
    LEDGER_SIMULATOR = 1, /* the simulator: every copy, every launch's pointers */
    LEDGER_GPU_CALLS = 2  /* a GPU build: the runtime calls gpu_ledger.cpp wraps */
};

typedef struct {
    char magic[4];
    int32_t n;
    uint64_t seed;
    int32_t status;   /* cudaSuccess (0) or the CUDA error that stopped it */
    int32_t ledger;   /* who kept the ledger below: one of LEDGER_... */
    matmul_ledger moved;
    char detail[240]; /* what failed, when status != 0 */
} lab_exec_header;

#endif
