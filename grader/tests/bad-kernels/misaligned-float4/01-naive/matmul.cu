// Bad kernel: the naive kernel reading each row of A four floats at a time,
// as float4, whatever n. A row starts on a 16-byte boundary only when n is
// a multiple of 4: elsewhere a GPU's 16-byte load faults ("misaligned
// address"), while a CPU would load it from anywhere. The simulator stops
// the kernel as a GPU does, at n = 31, 33 and 257; the other sizes pass.
#include "lab.h"

__global__ void naive_float4_rows(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    const float4 *a_row = reinterpret_cast<const float4 *>(A + (size_t)row * n);
    float sum = 0.0f;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        float4 a = a_row[k / 4];
        sum += a.x * B[k * n + col] + a.y * B[(k + 1) * n + col] + a.z * B[(k + 2) * n + col] +
               a.w * B[(k + 3) * n + col];
    }
    for (; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive_float4_rows<<<grid, block>>>(A, B, C, n);
}
