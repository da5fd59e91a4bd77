// Correct, and written with C++ a GPU compiles as well as a CPU: a kernel
// templated on its block size and element type, launched as mm<8, float>,
// a lambda inside it for the row-major index, value-initialised T{}, fmaf,
// and a block-wide vote: __syncthreads_or lets a block that lies wholly
// outside C leave at once (all its threads agree, so no barrier is left
// half-met), the others guard element by element.
#include "lab.h"

template <int BS, typename T>
__global__ void __launch_bounds__(BS * BS)
    mm(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C, int n)
{
    auto at = [n](const T *M, int r, int c) { return M[r * n + c]; };
    int col = blockIdx.x * BS + threadIdx.x;
    int row = blockIdx.y * BS + threadIdx.y;
    bool inside = row < n && col < n;
    if (!__syncthreads_or(inside))
        return;
    if (!inside)
        return;
    T acc{};
#pragma unroll 4
    for (int k = 0; k < n; ++k)
        acc = fmaf(at(A, row, k), at(B, k, col), acc);
    C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    constexpr int bs = 8;
    dim3 grid((n + bs - 1) / bs, (n + bs - 1) / bs);
    mm<bs, float><<<grid, dim3(bs, bs)>>>(A, B, C, n);
}
