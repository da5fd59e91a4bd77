// A loop whose bound never moves: the kernel never finishes.
#include "lab.h"

__global__ void spin(float *C, int n)
{
    volatile int i = 0;
    while (i < n)
        i = i * 1;
    C[0] = (float)i;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    spin<<<1, 32>>>(C, n);
}
