// A missing semicolon.
#include "lab.h"

__global__ void broken(float *C, int n)
{
    C[0] = 1.0f
}

void matmul(const float *A, const float *B, float *C, int n)
{
    broken<<<1, 1>>>(C, n);
}
