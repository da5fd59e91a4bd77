// Right on a GPU and on the simulator: each thread first copies its row of
// A into an array of its own, then multiplies from there.  On a GPU the
// array is in local memory (a thread may have up to 512 KiB of it: here
// 80 KB), slower than registers but allowed; on the simulator it is on the
// CUDA thread's stack, which grows to take it.
#include "lab.h"

#define MAX_ROW 20000

__global__ void row_copied_first(const float *A, const float *B, float *C, int n)
{
    float row_of_a[MAX_ROW];
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n || c >= n || n > MAX_ROW)
        return;
    for (int k = 0; k < n; ++k)
        row_of_a[k] = A[r * n + k];
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += row_of_a[k] * B[k * n + c];
    C[r * n + c] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    row_copied_first<<<grid, block>>>(A, B, C, n);
}
