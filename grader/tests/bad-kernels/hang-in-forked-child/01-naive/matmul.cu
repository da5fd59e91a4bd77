// Forks a copy of itself that spins on the host for ever, then launches a
// kernel that never ends.  Killing the program alone would leave the copy
// running: the grader must stop both, also when the grading itself is
// stopped from outside.
#include <unistd.h>

#include "lab.h"

__global__ void spin(float *C, int n)
{
    volatile float *last = C + (n * n - 1);
    while (*last != 12345.0f) {
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    if (fork() == 0) {
        volatile int forever = 1;
        while (forever) {
        }
    }
    spin<<<1, 32>>>(C, n);
}
