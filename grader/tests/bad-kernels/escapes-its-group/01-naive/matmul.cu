// A right kernel, and a copy of the program that leaves the grader's reach
// before it spins for ever: it starts a session of its own (setsid), so
// killing the program's process group misses it, and forks once more, so
// killing it alone would leave its child.  Left running, it would eat the
// CPU that every later test and student is timed on.  The grader must give
// the kernel its points and leave nothing of it running.
#include <unistd.h>

#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    if (fork() == 0) {
        setsid();
        fork();  // two of them, parent and child, both out of the group
        volatile int forever = 1;
        while (forever) {
        }
    }
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
