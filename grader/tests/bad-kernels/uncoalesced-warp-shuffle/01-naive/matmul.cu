// One warp per element of C, its lanes splitting the dot product and adding
// up with __shfl_down_sync: no shared memory, no __syncthreads(), and the
// lanes of a warp exchange registers.  The simulator must run the shuffle
// as a GPU does (each lane waits for its mask's lanes, then reads another's
// value), and every size test pass; but splitting k makes the lanes read B
// down a column, a sector each, so it loses stage 01's coalescing test,
// and only it.
#include "lab.h"

// One warp per element of C: lanes split k, then a shuffle reduction.
__global__ void warp_dot(const float *A, const float *B, float *C, int n)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (warp >= n * n)
        return;
    int row = warp / n, col = warp % n;
    float s = 0.0f;
    for (int k = lane; k < n; k += 32)
        s += A[row * n + k] * B[k * n + col];
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
        C[row * n + col] = s;
}
void matmul(const float *A, const float *B, float *C, int n)
{
    long threads = 32L * n * n;
    warp_dot<<<(unsigned)((threads + 255) / 256), 256>>>(A, B, C, n);
}
