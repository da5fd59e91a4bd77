/* test_check_mode, part: shared requests' wavefronts and bank conflicts,
 * global requests' sectors.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

// ----------------------------------------------------------- bank conflicts

// One warp writes a column: all 32 words in bank 0, 32 wavefronts.  Lane 0
// then sums the column alone (one lane per request: no conflict).
__global__ void column_store(const float *in, float *out)
{
    __shared__ float s[32][32];
    s[threadIdx.x][0] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int r = 0; r < 32; r++)
            sum += s[r][0];
        out[0] = sum;
    }
}

START_TEST(column_store_32_way)
{
    float *in = dev_floats(32), *out = dev_floats(1);
    checked_run run;
    column_store<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 32);  // one request
    EXPECT(r, "shared_column_stores", 1);  // down a column: each lane a row (32 words) apart
    EXPECT(r, "bank_conflicts_st", 31);
    EXPECT(r, "bank_conflicts_ld", 0);
    expect_clean_except(r, {"bank_conflicts_st"});
    const finding_line &f = one_finding(r, {"32-way"});
    ck_assert_str_eq(f.kind.c_str(), "bank_conflict");
    ck_assert_msg(contains(f.whole, "kind=bank_conflict 32-way store at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    ck_assert_msg(contains(r.human, "32-way bank conflict at " + this_file_name() + ":"), "the report:\n%s",
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "(store, 1 requests, 31 extra wavefronts)"), "the report:\n%s", r.human.c_str());
    ck_assert_float_eq(to_host(out, 1)[0], 32.0f + 31.0f * 32.0f / 2.0f);  // 1 + 2 + ... + 32
}
END_TEST

// The column store of column_store, in a helper each call of the kernel
// reaches twice: once through a caller inlined, once through one kept out
// of line.  Either way the report must say the same: the helper's own line
// (not a call's), once, its requests added up.  A kernel's helpers are
// inlined or not by the compiler's costs, which differ between machines.
static const int helper_store_line = __LINE__ + 1;
__device__ void column_store_in_helper(float (*s)[32], float v) { s[threadIdx.x][0] = v; }
__device__ __forceinline__ void store_through_inlined(float (*s)[32], float v) { column_store_in_helper(s, v); }
__device__ __noinline__ void store_through_call(float (*s)[32], float v) { column_store_in_helper(s, v); }

template <bool OutOfLine>
__global__ void column_stores_by_helper(const float *in, float *out)
{
    __shared__ float s[32][32];
    // Two calls: inlined, two code addresses of the helper's one line.
    if (OutOfLine) {
        store_through_call(s, in[threadIdx.x]);
        store_through_call(s, in[threadIdx.x] + 1);
    } else {
        store_through_inlined(s, in[threadIdx.x]);
        store_through_inlined(s, in[threadIdx.x] + 1);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = s[31][0];
}

static void expect_helper_named_once(bool out_of_line)
{
    float *in = dev_floats(32), *out = dev_floats(1);
    checked_run run;
    if (out_of_line)
        column_stores_by_helper<true><<<1, 32>>>(in, out);
    else
        column_stores_by_helper<false><<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 64);  // two requests
    EXPECT(r, "bank_conflicts_st", 62);
    const finding_line &f = one_finding(r, {"32-way"});
    std::string at = this_file_name() + ":" + std::to_string(helper_store_line);
    ck_assert_msg(contains(f.whole, "32-way store at " + at), "%s", f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    std::string line = "32-way bank conflict at " + at + " (store, 2 requests, 62 extra wavefronts)";
    ck_assert_msg(contains(r.human, line), "the report:\n%s", r.human.c_str());
    ck_assert_msg(r.human.find("bank conflict at") == r.human.rfind("bank conflict at"),
                  "one line of source, one report line:\n%s", r.human.c_str());
    ck_assert_float_eq(to_host(out, 1)[0], 32.0f + 1.0f);  // in[31], then plus one
}

START_TEST(helper_inlined_named_by_its_line)
{
    expect_helper_named_once(false);
}
END_TEST

START_TEST(helper_out_of_line_named_by_its_line)
{
    expect_helper_named_once(true);
}
END_TEST

// A row store (32 banks) and a broadcast read of one word.
__global__ void row_store_broadcast_read(const float *in, float *out)
{
    __shared__ float s[32][32];
    s[0][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[0][5];
}

START_TEST(broadcast_and_row_are_conflict_free)
{
    float *in = dev_floats(32), *out = dev_floats(32);
    checked_run run;
    row_store_broadcast_read<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 32);
    EXPECT(r, "shared_loads", 32);
    EXPECT(r, "shared_column_stores", 0);  // along a row: lanes one word apart
    EXPECT(r, "bank_conflicts_ld", 0);
    EXPECT(r, "bank_conflicts_st", 0);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
    ck_assert_msg(!contains(r.human, "bank conflict at"), "the report:\n%s", r.human.c_str());
    ck_assert_float_eq(to_host(out, 32)[31], 6.0f);
}
END_TEST

// Fills 33 rows of 32 words (row stores, conflict-free), then each lane
// reads word stride·lane.
__global__ void strided_shared_read(const float *in, float *out, int stride)
{
    __shared__ float s_flat[33 * 32];
    for (int j = 0; j < 33; j++)
        s_flat[j * 32 + threadIdx.x] = in[j * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s_flat[stride * threadIdx.x];
}

static check_report run_strided_shared(int stride)
{
    float *in = dev_floats(33 * 32), *out = dev_floats(32);
    checked_run run;
    strided_shared_read<<<1, 32>>>(in, out, stride);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_loads", 32);  // one request
    EXPECT(r, "shared_stores", 33 * 32);
    EXPECT(r, "bank_conflicts_st", 0);
    return r;
}

// Words 0, 2, ..., 62: banks 0, 2, ..., 30, two words each.
START_TEST(stride_2_is_2_way)
{
    check_report r = run_strided_shared(2);
    EXPECT(r, "bank_conflicts_ld", 1);
    expect_clean_except(r, {"bank_conflicts_ld"});
    const finding_line &f = one_finding(r, {"2-way"});
    ck_assert_msg(contains(f.whole, "kind=bank_conflict 2-way load at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
}
END_TEST

// Words 33·i: bank i for lane i, as a column of a [32][33] array.
START_TEST(stride_33_is_conflict_free)
{
    check_report r = run_strided_shared(33);
    EXPECT(r, "bank_conflicts_ld", 0);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// --------------------------------------------------------------- coalescing

__global__ void strided_global_read(const float *A, float *out, int stride)
{
    out[threadIdx.x] = A[threadIdx.x * stride];
}

static check_report run_strided_global(int stride)
{
    float *A = dev_floats(32 * 1024), *out = dev_floats(32);
    checked_run run;
    strided_global_read<<<1, 32>>>(A, out, stride);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "global_loads", 32);
    EXPECT(r, "load_requests", 1);
    EXPECT(r, "global_stores", 32);
    EXPECT(r, "store_requests", 1);
    EXPECT(r, "store_sectors", 4);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
    return r;
}

// Lane i reads A[1024·i]: 32 lanes, 32 sectors 4 KiB apart.
START_TEST(uncoalesced_load_32_sectors)
{
    check_report r = run_strided_global(1024);
    EXPECT(r, "load_sectors", 32);
    ck_assert_msg(contains(r.human, "32.0 sectors per request (uncoalesced"), "the report:\n%s", r.human.c_str());
}
END_TEST

// Lane i reads A[i]: 128 contiguous, aligned bytes, 4 sectors.
START_TEST(coalesced_load_4_sectors)
{
    check_report r = run_strided_global(1);
    EXPECT(r, "load_sectors", 4);
    ck_assert_msg(!contains(r.human, "uncoalesced"), "the report:\n%s", r.human.c_str());
}
END_TEST

void add_traffic_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "bank_conflicts", 10);
    tcase_add_test(tc, column_store_32_way);
    tcase_add_test(tc, helper_inlined_named_by_its_line);
    tcase_add_test(tc, helper_out_of_line_named_by_its_line);
    tcase_add_test(tc, broadcast_and_row_are_conflict_free);
    tcase_add_test(tc, stride_2_is_2_way);
    tcase_add_test(tc, stride_33_is_conflict_free);

    tc = tcase(s, "coalescing", 10);
    tcase_add_test(tc, uncoalesced_load_32_sectors);
    tcase_add_test(tc, coalesced_load_4_sectors);
}
