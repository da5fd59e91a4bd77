/* test_simulator, part: tensor cores: nvcuda::wmma with TF32 inputs, its
 * rounding, every layout of its loads and stores, a product of several
 * warps, and the misuses CUDA leaves undefined (a misaligned tile, a lane
 * missing at mma_sync), which fail the launch with a message.
 */
#include <float.h>
#include <mma.h>

#include "simulator_tests.h"

using namespace nvcuda;

__global__ void to_tf32(const float *in, float *out, int count)
{
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        out[i] = wmma::__float_to_tf32(in[i]);
}

// PTX's cvt.rna.tf32.f32: 10 mantissa bits kept, to the nearest, ties away
// from zero; infinities unchanged; FLT_MAX rounds up to infinity; a NaN
// loses its low 13 bits (0x7fc00fff gives 0x7fc00000 on an H200).
START_TEST(tf32_rounding_is_to_nearest_ties_away)
{
    const float e = 1.0f / 4096;  // 2^-12: the first bit TF32 drops is 2^-11
    const float in[] = {1.0f, 1.0f + 2 * e, 1.0f + e, 1.0f + 3 * e, -(1.0f + 2 * e), 1.0f + 6 * e,
                        INFINITY, -INFINITY, FLT_MAX, 0.0f, -0.0f, __uint_as_float(0x7fc00fffu), __uint_as_float(0xffc03fffu)};
    const float want[] = {1.0f, 1.0f + 4 * e, 1.0f, 1.0f + 4 * e, -(1.0f + 4 * e), 1.0f + 8 * e,
                          INFINITY, -INFINITY, INFINITY, 0.0f, -0.0f, __uint_as_float(0x7fc00000u), __uint_as_float(0xffc02000u)};
    const int count = sizeof in / sizeof in[0];
    float *d_in = dev_alloc<float>(count), *d_out = dev_alloc<float>(count);
    to_device(d_in, std::vector<float>(in, in + count));
    to_tf32<<<1, 32>>>(d_in, d_out, count);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> out = to_host(d_out, count);
    for (int i = 0; i < count; i++)
        ck_assert_msg(__float_as_uint(out[i]) == __float_as_uint(want[i]), "value %d (0x%08x): 0x%08x, want 0x%08x", i,
                      __float_as_uint(in[i]), __float_as_uint(out[i]), __float_as_uint(want[i]));
}
END_TEST

// One warp, one tile of each: D = A B + C with A, B and C in the layouts
// the template names (C loaded and D stored in C_LAYOUT).
template <class LayoutA, class LayoutB>
__global__ void one_tile(const float *A, const float *B, const float *C, float *D, int lda, int ldb, int ldc,
                         wmma::layout_t c_layout)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, LayoutA> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, LayoutB> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, c_layout);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldc, c_layout);
}

// Element (r, c) of a matrix stored in a layout with leading dimension ld.
static int at(int r, int c, int ld, bool row_major) { return row_major ? r * ld + c : c * ld + r; }

template <class LayoutA, class LayoutB>
static void check_one_tile(bool c_row_major)
{
    const bool a_rows = std::is_same<LayoutA, wmma::row_major>::value;
    const bool b_rows = std::is_same<LayoutB, wmma::row_major>::value;
    // Leading dimensions past the tile (12, 20, 24 floats: multiples of 4).
    const int lda = a_rows ? 12 : 20, ldb = b_rows ? 20 : 12, ldc = 24;
    std::vector<float> A(16 * 20, NAN), B(16 * 20, NAN), C(16 * 24, NAN);
    // Small integers: every product and sum is exact, in any order.
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 8; k++) {
            A[at(r, k, lda, a_rows)] = (float)((r * 3 + k * 5) % 7 - 3);
            B[at(k, r, ldb, b_rows)] = (float)((k * 2 + r * 7) % 9 - 4);
        }
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            C[at(r, c, ldc, c_row_major)] = (float)(r - c);
    float *dA = dev_alloc<float>(A.size()), *dB = dev_alloc<float>(B.size()), *dC = dev_alloc<float>(C.size()),
          *dD = dev_alloc<float>(C.size());
    to_device(dA, A);
    to_device(dB, B);
    to_device(dC, C);
    one_tile<LayoutA, LayoutB><<<1, 32>>>(dA, dB, dC, dD, lda, ldb, ldc,
                                          c_row_major ? wmma::mem_row_major : wmma::mem_col_major);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> D = to_host(dD, C.size());
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            float want = C[at(r, c, ldc, c_row_major)];
            for (int k = 0; k < 8; k++)
                want += A[at(r, k, lda, a_rows)] * B[at(k, c, ldb, b_rows)];
            float got = D[at(r, c, ldc, c_row_major)];
            ck_assert_msg(got == want, "A %s, B %s, C %s: D(%d,%d) = %g, want %g", a_rows ? "rows" : "columns",
                          b_rows ? "rows" : "columns", c_row_major ? "rows" : "columns", r, c, got, want);
        }
}

START_TEST(wmma_tile_in_every_layout)
{
    for (int c_rows = 0; c_rows < 2; c_rows++) {
        check_one_tile<wmma::row_major, wmma::row_major>(c_rows);
        check_one_tile<wmma::row_major, wmma::col_major>(c_rows);
        check_one_tile<wmma::col_major, wmma::row_major>(c_rows);
        check_one_tile<wmma::col_major, wmma::col_major>(c_rows);
    }
}
END_TEST

// A tensor core reads only a TF32 operand's top 10 mantissa bits: 1 + 2^-12
// counts as 1, rounded or not; __float_to_tf32 of 1 + 2^-11 is 1 + 2^-10.
// The accumulator keeps float's precision: C's 2^-20 survives.
__global__ void ones_product(float a_value, bool round_first, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(a, a_value);
    wmma::fill_fragment(b, 1.0f);
    wmma::fill_fragment(c, 1.0f / (1 << 20));
    if (round_first)
        for (int i = 0; i < a.num_elements; i++)
            a.x[i] = wmma::__float_to_tf32(a.x[i]);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

START_TEST(wmma_reads_operands_as_tf32)
{
    struct { float a; bool round_first; float want; } cases[] = {
        {1.0f + 1.0f / 4096, false, 8.0f},
        {1.0f + 1.0f / 4096, true, 8.0f},
        {1.0f + 1.0f / 2048, false, 8.0f},
        {1.0f + 1.0f / 2048, true, 8.0f * (1.0f + 1.0f / 1024)},
    };
    float *dD = dev_alloc<float>(256);
    for (auto &c : cases) {
        ones_product<<<1, 32>>>(c.a, c.round_first, dD);
        CUDA_OK(cudaDeviceSynchronize());
        std::vector<float> D = to_host(dD, 256);
        float want = c.want + 1.0f / (1 << 20);
        for (int i = 0; i < 256; i++)
            ck_assert_msg(D[i] == want, "a = %a (%s): D[%d] = %a, want %a", c.a,
                          c.round_first ? "rounded first" : "as it is", i, D[i], want);
    }
}
END_TEST

// C = A B for n a multiple of 16, a warp per 16 x 16 tile of C, four warps
// a block in a 2-D block of 32 x 4 (lanes numbered x fastest), straight from
// global memory.
__global__ void wmma_product(const float *A, const float *B, float *C, int n)
{
    int warp = threadIdx.y, tile_row = blockIdx.y * 4 + warp, tile_col = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += 8) {
        wmma::load_matrix_sync(a, A + tile_row * 16 * n + k, n);
        wmma::load_matrix_sync(b, B + k * n + tile_col * 16, n);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tile_row * 16 * n + tile_col * 16, acc, n, wmma::mem_row_major);
}

START_TEST(wmma_product_of_several_warps_and_blocks)
{
    const int n = 64;
    std::vector<float> A(n * n), B(n * n);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(i % 5 - 2);
        B[i] = (float)(i % 3 - 1);
    }
    float *dA = dev_alloc<float>(n * n), *dB = dev_alloc<float>(n * n), *dC = dev_alloc<float>(n * n);
    to_device(dA, A);
    to_device(dB, B);
    wmma_product<<<dim3(n / 16, n / 64), dim3(32, 4)>>>(dA, dB, dC, n);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> C = to_host(dC, n * n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            float want = 0;
            for (int k = 0; k < n; k++)
                want += A[r * n + k] * B[k * n + c];
            ck_assert_msg(C[r * n + c] == want, "C(%d,%d) = %g, want %g", r, c, C[r * n + c], want);
        }
}
END_TEST

__global__ void load_from(const float *p, unsigned ldm)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::load_matrix_sync(a, p, ldm);
}

START_TEST(wmma_misaligned_tiles_fail_the_launch)
{
    float *d = dev_alloc<float>(16 * 16);
    stderr_capture cap;
    load_from<<<1, 32>>>(d + 4, 16);  // 16 bytes past a 256-byte boundary
    std::string said = cap.finish();
    CUDA_IS(cudaErrorMisalignedAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "32-byte (256-bit) aligned");
}
END_TEST

START_TEST(wmma_strides_off_16_bytes_fail_the_launch)
{
    float *d = dev_alloc<float>(16 * 16);
    stderr_capture cap;
    load_from<<<1, 32>>>(d, 10);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorMisalignedAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "ldm 10");
}
END_TEST

__global__ void lane_missing(float *D)
{
    if (threadIdx.x == 31)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(a, 1.0f);
    wmma::fill_fragment(b, 1.0f);
    wmma::fill_fragment(c, 0.0f);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

START_TEST(wmma_with_a_lane_missing_fails_the_launch)
{
    float *d = dev_alloc<float>(256);
    stderr_capture cap;
    lane_missing<<<1, 32>>>(d);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "wmma::mma_sync: lane 31 of the warp takes no part");
}
END_TEST

void add_tensor_core_tests(Suite *s)
{
    TCase *tc = tcase(s, "tensor_cores", 10);
    tcase_add_test(tc, tf32_rounding_is_to_nearest_ties_away);
    tcase_add_test(tc, wmma_tile_in_every_layout);
    tcase_add_test(tc, wmma_reads_operands_as_tf32);
    tcase_add_test(tc, wmma_product_of_several_warps_and_blocks);
    tcase_add_test(tc, wmma_misaligned_tiles_fail_the_launch);
    tcase_add_test(tc, wmma_strides_off_16_bytes_fail_the_launch);
    tcase_add_test(tc, wmma_with_a_lane_missing_fails_the_launch);
}
