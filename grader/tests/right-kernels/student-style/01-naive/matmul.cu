// Correct, and written with the parts of CUDA a student who knows it might
// reach for: a __constant__ copied with cudaMemcpyToSymbol, cudaMalloc on a
// typed pointer, __restrict__ and __ldg, a __host__ __device__ helper,
// __forceinline__ and __noinline__, __launch_bounds__, #pragma unroll, dim3
// fields in arithmetic, float4 helpers and cudaPeekAtLastError.  nvcc
// compiles it (make test-nvcc), and the grader gives it full marks on the
// simulator (grader/tests/grade_stages.sh): a file right on one backend must
// not fail to compile on the other.
#include "lab.h"

__constant__ int c_n;           // the matrices' width, as every thread reads it

__host__ __device__ __forceinline__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

__device__ __noinline__ float row_times_col(const float *__restrict__ A, const float *__restrict__ B,
                                            int row, int col, int n)
{
    float acc = 0.0f;
#pragma unroll 4
    for (int k = 0; k < n; ++k)
        acc = fmaf(__ldg(&A[row * n + k]), __ldg(&B[k * n + col]), acc);
    return acc;
}

__global__ void __launch_bounds__(256) student_style(const float *__restrict__ A, const float *__restrict__ B,
                                                     float *__restrict__ C)
{
    int n = c_n;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        C[row * n + col] = row_times_col(A, B, row, col, n);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    CUDA_CHECK(cudaMemcpyToSymbol(c_n, &n, sizeof n));
    // A typed cudaMalloc, as nvcc's header allows.
    float4 *scratch = nullptr;
    CUDA_CHECK(cudaMalloc(&scratch, sizeof *scratch));
    float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    CUDA_CHECK(cudaMemcpy(scratch, &zero, sizeof zero, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaFree(scratch));

    dim3 block(32, 8);
    dim3 grid(ceil_div(n, block.x), ceil_div(n, block.y));
    student_style<<<grid, block>>>(A, B, C);
    CUDA_CHECK(cudaPeekAtLastError());
}
