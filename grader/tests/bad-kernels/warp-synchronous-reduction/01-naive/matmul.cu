// Bad kernel: one warp per element of C. Each lane sums every 32nd product,
// then the lanes add their sums up through shared memory the way code for
// GPUs before Volta did, trusting the warp to run in lockstep: no barrier,
// only `volatile`. Since Volta a warp's lanes may run apart, so each step
// reads a word its neighbour may not have written yet. On the simulator,
// whose lanes run one after another, they never have: C comes out NaN, and
// check mode names the missing __syncwarp().
#include "lab.h"

__global__ void warp_per_element(const float *A, const float *B, float *C, int n)
{
    __shared__ volatile float partial[32];
    int element = blockIdx.x, row = element / n, col = element % n, lane = threadIdx.x;
    float sum = 0.0f;
    for (int k = lane; k < n; k += 32)
        sum += A[row * n + k] * B[k * n + col];
    partial[lane] = sum;
    for (int half = 16; half > 0; half /= 2)
        if (lane < half)
            partial[lane] += partial[lane + half];
    if (lane == 0)
        C[element] = partial[0];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    warp_per_element<<<n * n, 32>>>(A, B, C, n);
}
