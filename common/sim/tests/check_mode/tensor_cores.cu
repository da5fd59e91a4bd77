/* test_check_mode, part: tensor cores: a WMMA fragment load from shared
 * memory counted as the loads of its lanes' elements, whose bank conflicts
 * depend on the tile's stride as on a GPU, and an mma_sync that orders the
 * warp's accesses as any warp-level call does.
 */
#include <mma.h>

#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

using namespace nvcuda;

// One warp stages a 16 x 8 tile of A in shared memory with rows LDM floats
// apart (conflict-free stores: consecutive words), then loads it as a
// fragment, multiplies by ones and stores D.
template <int LDM>
__global__ void fragment_from_shared(const float *A, float *D)
{
    __shared__ __align__(32) float tile[16 * LDM];
    for (int i = threadIdx.x; i < 16 * LDM; i += 32)
        tile[i] = A[i];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, tile, LDM);
    wmma::fill_fragment(b, 1.0f);
    wmma::fill_fragment(c, 0.0f);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

template <int LDM>
static check_report run_fragment_from_shared(std::vector<float> *d_host)
{
    float *A = dev_floats(16 * LDM), *D = dev_floats(256);
    checked_run run;
    fragment_from_shared<LDM><<<1, 32>>>(A, D);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    *d_host = to_host(D, 256);
    return run.finish();
}

// Rows 8 floats apart: lanes g and g + 4 of each request share a bank (two
// words: 2-way) in all four of the fragment's requests.
START_TEST(fragment_load_with_rows_8_apart_is_2_way)
{
    std::vector<float> d;
    check_report r = run_fragment_from_shared<8>(&d);
    EXPECT(r, "shared_loads", 32 * 4);  // 4 elements a lane: 4 requests
    EXPECT(r, "bank_conflicts_ld", 4);
    EXPECT(r, "tensor_core_macs", 16 * 16 * 8);  // one warp's one mma_sync
    EXPECT(r, "bank_conflicts_st", 0);
    EXPECT(r, "hazards", 0);
    // Named by the student's line, not the header's.
    const finding_line &f = one_finding(r, {"2-way load"});
    int line = line_after(f.whole, "2-way load at ");
    ck_assert_msg(contains(source_line(line), "wmma::load_matrix_sync"), "%s names line %d: \"%s\"",
                  f.whole.c_str(), line, source_line(line).c_str());
    // Row r of D: the sum of A's row r (dev_floats: 1 + i % 97), in every column.
    for (int row = 0; row < 16; row++) {
        float want = 0;
        for (int k = 0; k < 8; k++)
            want += 1.0f + (float)((row * 8 + k) % 97);
        ck_assert_msg(d[row * 16 + 5] == want, "D(%d,5) = %g, want %g", row, d[row * 16 + 5], want);
    }
}
END_TEST

// Rows 12 floats apart: the 8 rows of a request start 12 banks apart, and
// their 4 words fill all 32 banks.
START_TEST(fragment_load_with_rows_12_apart_is_conflict_free)
{
    std::vector<float> d;
    check_report r = run_fragment_from_shared<12>(&d);
    EXPECT(r, "shared_loads", 32 * 4);
    EXPECT(r, "bank_conflicts_ld", 0);
    expect_clean_except(r, {});
}
END_TEST

void add_tensor_core_tests(Suite *s)
{
    TCase *tc = tcase(s, "tensor_cores", 10);
    tcase_add_test(tc, fragment_load_with_rows_8_apart_is_2_way);
    tcase_add_test(tc, fragment_load_with_rows_12_apart_is_conflict_free);
}
