// Does the simulator's model of a tensor core (../tensor_core_layout.h,
// ../warp_mma.cpp) agree with this GPU?  Built by nvcc and run on a GPU
// (grader/tests/on_gpu.sh runs it); the model's functions are compiled for
// the host beside the GPU's kernels and each answer is compared:
//
//   - the fragment layout: which element of A, B and C each lane's x[i] holds
//     (the simulator's own bank-conflict counts of a fragment load rest on it);
//   - __float_to_tf32 of 2^20 random 32-bit patterns, bit for bit;
//   - WMMA products of random floats at n = 256, with operands rounded by
//     __float_to_tf32 and as given (the tensor core then drops their low
//     bits): each within a few float roundings of the model's product, since
//     the GPU's sum rounds along the way where the model's does not.
//
//   nvcc -arch=sm_80 (or later) -I common/sim tensor_cores.cu && ./a.out
// Exit status 0 when every check agrees.
#include <cuda_runtime.h>
#include <mma.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include "tensor_core_layout.h"

using namespace nvcuda;

#define CUDA_OK(call)                                                                          \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                           \
        }                                                                                      \
    } while (0)

__global__ void round_all(const float *in, float *out, int count)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
        out[i] = wmma::__float_to_tf32(in[i]);
}

// Each lane's elements of fragments loaded from tiles whose elements are
// their own indices (A and B 0..127, C 0..255, row-major).
__global__ void fragment_contents(const float *indices, float *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, indices, 8);
    wmma::load_matrix_sync(b, indices, 16);
    wmma::load_matrix_sync(c, indices, 16, wmma::mem_row_major);
    int lane = threadIdx.x;
    for (int i = 0; i < a.num_elements; i++)
        out[lane * 4 + i] = a.x[i];
    for (int i = 0; i < b.num_elements; i++)
        out[128 + lane * 4 + i] = b.x[i];
    for (int i = 0; i < c.num_elements; i++)
        out[256 + lane * 8 + i] = c.x[i];
}

// C = A B, a warp per 16 x 16 tile, four warps a block.
__global__ void product(const float *A, const float *B, float *C, int n, bool round_first)
{
    int tile_row = blockIdx.y * 4 + threadIdx.y, tile_col = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += 8) {
        wmma::load_matrix_sync(a, A + tile_row * 16 * n + k, n);
        wmma::load_matrix_sync(b, B + k * n + tile_col * 16, n);
        if (round_first) {
            for (int i = 0; i < a.num_elements; i++)
                a.x[i] = wmma::__float_to_tf32(a.x[i]);
            for (int i = 0; i < b.num_elements; i++)
                b.x[i] = wmma::__float_to_tf32(b.x[i]);
        }
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tile_row * 16 * n + tile_col * 16, acc, n, wmma::mem_row_major);
}

static uint32_t next_random()
{
    static uint64_t s = 88172645463325252ull;  // xorshift64
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return (uint32_t)s;
}

static int failures;
static void verdict(bool ok, const char *what)
{
    printf("%s  %s\n", ok ? "agrees  " : "DIFFERS ", what);
    failures += !ok;
}

static void check_layout()
{
    std::vector<float> indices(256), out(512);
    for (int i = 0; i < 256; i++)
        indices[i] = (float)i;
    float *d_in, *d_out;
    CUDA_OK(cudaMalloc(&d_in, 256 * 4));
    CUDA_OK(cudaMalloc(&d_out, 512 * 4));
    CUDA_OK(cudaMemcpy(d_in, indices.data(), 256 * 4, cudaMemcpyHostToDevice));
    fragment_contents<<<1, 32>>>(d_in, d_out);
    CUDA_OK(cudaMemcpy(out.data(), d_out, 512 * 4, cudaMemcpyDeviceToHost));
    struct { sim::fragment_use use; int offset, columns; const char *name; } uses[] = {
        {sim::fragment_use::matrix_a, 0, 8, "A"}, {sim::fragment_use::matrix_b, 128, 16, "B"},
        {sim::fragment_use::accumulator, 256, 16, "C"}};
    for (auto &u : uses) {
        int count = sim::fragment_elements(u.use), same = 0;
        for (unsigned lane = 0; lane < 32; lane++)
            for (int i = 0; i < count; i++) {
                sim::tile_place at = sim::fragment_place(u.use, lane, i);
                same += out[u.offset + lane * count + i] == (float)(at.row * u.columns + at.col);
            }
        char what[128];
        snprintf(what, sizeof what, "fragment layout of %s: %d of %d elements where the model has them", u.name, same,
                 32 * count);
        verdict(same == 32 * count, what);
    }
}

static void check_rounding()
{
    const int count = 1 << 20;
    std::vector<float> in(count), out(count);
    for (int i = 0; i < count; i++)
        in[i] = sim::bits_float(next_random());
    float *d_in, *d_out;
    CUDA_OK(cudaMalloc(&d_in, count * 4));
    CUDA_OK(cudaMalloc(&d_out, count * 4));
    CUDA_OK(cudaMemcpy(d_in, in.data(), count * 4, cudaMemcpyHostToDevice));
    round_all<<<256, 256>>>(d_in, d_out, count);
    CUDA_OK(cudaMemcpy(out.data(), d_out, count * 4, cudaMemcpyDeviceToHost));
    int same = 0, shown = 0;
    for (int i = 0; i < count; i++) {
        uint32_t gpu = sim::float_bits(out[i]), model = sim::float_bits(sim::round_to_tf32(in[i]));
        same += gpu == model;
        if (gpu != model && shown++ < 5)
            printf("          __float_to_tf32(0x%08x): GPU 0x%08x, model 0x%08x\n", sim::float_bits(in[i]), gpu,
                   model);
    }
    char what[128];
    snprintf(what, sizeof what, "__float_to_tf32: %d of %d random patterns bit for bit", same, count);
    verdict(same == count, what);
}

// The model's product (warp_mma.cpp): per k-step of 8, the exact sum of
// the eight TF32 products and the accumulator, rounded to float.
static float model_element(const std::vector<float> &A, const std::vector<float> &B, int n, int r, int c,
                           bool round_first)
{
    float acc = 0;
    for (int k0 = 0; k0 < n; k0 += 8) {
        double sum = acc;
        for (int k = k0; k < k0 + 8; k++) {
            float a = A[r * n + k], b = B[k * n + c];
            if (round_first)
                a = sim::round_to_tf32(a), b = sim::round_to_tf32(b);
            sum += (double)sim::tf32_operand(a) * sim::tf32_operand(b);
        }
        acc = (float)sum;
    }
    return acc;
}

static void check_products()
{
    const int n = 256;
    std::vector<float> A(n * n), B(n * n), C(n * n);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(next_random() >> 8) / (1 << 23) - 1.0f;
        B[i] = (float)(next_random() >> 8) / (1 << 23) - 1.0f;
    }
    float *dA, *dB, *dC;
    CUDA_OK(cudaMalloc(&dA, n * n * 4));
    CUDA_OK(cudaMalloc(&dB, n * n * 4));
    CUDA_OK(cudaMalloc(&dC, n * n * 4));
    CUDA_OK(cudaMemcpy(dA, A.data(), n * n * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), n * n * 4, cudaMemcpyHostToDevice));
    for (int round_first = 1; round_first >= 0; round_first--) {
        product<<<dim3(n / 16, n / 64), dim3(32, 4)>>>(dA, dB, dC, n, round_first);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(C.data(), dC, n * n * 4, cudaMemcpyDeviceToHost));
        // The difference in units of the float rounding of the sum of
        // |a b|, the scale every rounding of this sum is on.
        double worst = 0, worst_truth = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double magnitude = 0, truth = 0;
                for (int k = 0; k < n; k++)
                    magnitude += fabs((double)A[r * n + k] * B[k * n + c]), truth += (double)A[r * n + k] * B[k * n + c];
                double unit = magnitude * ldexp(1.0, -24);
                worst = fmax(worst, fabs(C[r * n + c] - model_element(A, B, n, r, c, round_first)) / unit);
                worst_truth = fmax(worst_truth, fabs(C[r * n + c] - truth) / magnitude);
            }
        // Allowed: two roundings for each of the n / 8 steps of k, where the
        // model rounds once.
        const double allowed = n / 4;
        char what[200];
        snprintf(what, sizeof what,
                 "products at n = %d, operands %s: the GPU within %.1f roundings of the model's (%.0f allowed); "
                 "its error against float64, %.2g of the sum of |a b|",
                 n, round_first ? "rounded by __float_to_tf32" : "as given", worst, allowed, worst_truth);
        verdict(worst <= allowed, what);
    }
}

int main()
{
    cudaDeviceProp p;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    printf("the simulator's tensor-core model beside %s (sm_%d%d)\n", p.name, p.major, p.minor);
    check_layout();
    check_rounding();
    check_products();
    return failures ? 1 : 0;
}
