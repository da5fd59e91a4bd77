// A right kernel whose program will not end: an exit handler, registered
// by matmul, waits forever once every result has been written.  The
// results are complete, so they are graded; the grader stops the program
// a moment later instead of waiting out the time limit and calling it a
// hang.
#include <stdlib.h>
#include <unistd.h>

#include "lab.h"

static void linger(void)
{
    for (;;)
        pause();
}

__global__ void matmul_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    static int registered;
    if (!registered++)
        atexit(linger);
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    matmul_kernel<<<grid, block>>>(A, B, C, n);
}
