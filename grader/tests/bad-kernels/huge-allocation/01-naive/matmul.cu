// A right kernel behind a host allocation larger than one student's run may
// have: 4 GiB, every page touched, from an unchecked malloc as students
// write it.  Most machines could give it 4 GiB, so only the grader's memory
// limit (grader/student_run.c) makes it fail; with the limit it fails at
// once, and whatever else is being graded keeps its memory.
#include <stdlib.h>

#include "lab.h"

#define BLOCK 16

static volatile char sink;

__global__ void matmul_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    size_t huge = (size_t)4 << 30;
    char *scratch = (char *)malloc(huge);
    for (size_t i = 0; i < huge; i += 4096)
        scratch[i] = 1;
    sink = scratch[huge - 4096];  // the pages are used: the compiler keeps the loop
    dim3 block(BLOCK, BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
    matmul_kernel<<<grid, block>>>(A, B, C, n);
    free(scratch);
}
