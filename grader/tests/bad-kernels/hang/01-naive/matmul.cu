// Waits for a value that never comes: the kernel never finishes, on a GPU
// as on the simulator (the volatile load keeps the compiler from deciding
// the loop ends).
#include "lab.h"

__global__ void spin(float *C, int n)
{
    volatile float *last = C + (n * n - 1);
    while (*last != 12345.0f) {
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    spin<<<1, 32>>>(C, n);
}
