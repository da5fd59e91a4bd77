// Right on a GPU: the naive kernel, its loads written in PTX through inline
// assembly (a read-only global load, as SGEMM write-ups often do), one of
// them in a macro over several lines.  The simulator compiles the file for
// the CPU and cannot run PTX: the grader must call that the kit's limit,
// never the student's compile error.
#include "lab.h"

#define LOAD_READ_ONLY(value, address)                        \
    asm volatile("ld.global.nc.f32 %0, [%1];"                 \
                 : "=f"(value)                                \
                 : "l"(address))

__device__ __forceinline__ float load_read_only(const float *p)
{
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        float b;
        LOAD_READ_ONLY(b, &B[k * n + col]);
        sum += load_read_only(&A[row * n + k]) * b;
    }
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
