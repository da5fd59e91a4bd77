/* What lab_exec writes to the grader, per seed: a header, then (status 0
 * only) n*n floats of C, then A and B as they were in device memory after
 * matmul (the grader checks them bit for bit against the inputs it made:
 * a kernel must leave its inputs unchanged).  Shared by lab_exec and the
 * grader. */
#ifndef LAB_EXEC_PROTOCOL_H
#define LAB_EXEC_PROTOCOL_H

#include <stdint.h>

#define LAB_EXEC_RESULT_FD 3
#define LAB_EXEC_MAGIC "LAB2"

typedef struct {
    char magic[4];
    int32_t n;
    uint64_t seed;
    int32_t status;   /* cudaSuccess (0) or the CUDA error that stopped it */
    char detail[244]; /* what failed, when status != 0 */
} lab_exec_header;

#endif
