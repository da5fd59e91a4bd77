/* test_check_mode, part: cp.async: a copy lands at its wait, not before; a
 * missing barrier or wait is found; a zero fill reads nothing.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

// ------------------------------------------------------------- cp.async

// 32 lanes copy 128 floats into shared memory with 16-byte cp.async copies
// (lane i copies words 4i..4i+3), then lane i reads word i - 4, which a
// lower lane copied (lane 0 reads word 0).  Before: what each lane reads of
// its own first word before the wait (its copy has not landed).  SkipWait and SkipBarrier
// leave out the two steps that make another lane's word safe to read;
// ZeroFill asks for zeros instead of a read.  The reads are of consecutive
// words, so they have no bank conflicts of their own.
template <bool SkipWait, bool SkipBarrier, bool ZeroFill>
__global__ void async_copy_neighbours(const float *in, float *before, float *out)
{
    __shared__ __attribute__((aligned(16))) float s[128];
    int i = (int)threadIdx.x;
    __pipeline_memcpy_async(&s[4 * i], &in[4 * i], 16, ZeroFill ? 16 : 0);  // async copy
    __pipeline_commit();
    before[i] = reinterpret_cast<const float4 *>(s)[i].x;  // its own words
    if (!SkipWait)
        __pipeline_wait_prior(0);
    if (!SkipBarrier)
        __syncthreads();
    out[i] = s[i < 4 ? 0 : i - 4];
}

template <bool SkipWait, bool SkipBarrier, bool ZeroFill>
static check_report run_async_copy(std::vector<float> *before, std::vector<float> *out)
{
    float *in = dev_floats(128), *b = dev_floats(32), *o = dev_floats(32);
    checked_run run;
    async_copy_neighbours<SkipWait, SkipBarrier, ZeroFill><<<1, 32>>>(in, b, o);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    *before = to_host(b, 32);
    *out = to_host(o, 32);
    return run.finish();
}

// The copies land at the wait: before it no word is written, after it and
// the barrier each holds its input.  Each copy counts
// as one 16-byte global load and one 16-byte shared store.
START_TEST(async_copy_lands_at_the_wait)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, false, false>(&before, &out);
    for (int i = 0; i < 32; i++) {
        ck_assert_msg(before[i] != before[i], "lane %d read %g before any copy landed (want the NaN shared memory "
                      "starts with)", i, before[i]);
        ck_assert_msg(out[i] == 1.0f + (float)(i < 4 ? 0 : i - 4), "lane %d read %g", i, out[i]);
    }
    EXPECT(r, "global_loads", 32);
    EXPECT(r, "global_load_bytes", 32 * 16);
    EXPECT(r, "load_requests", 1);
    EXPECT(r, "load_sectors", 16);
    EXPECT(r, "shared_stores", 32);
    EXPECT(r, "uninitialised_shared_reads", 128);  // 4 words per lane before the wait
    expect_clean_except(r, {"uninitialised_shared_reads"});
}
END_TEST

// Waiting is not enough: without a barrier a lane reads its neighbour's word
// before the neighbour's wait has landed it.  The hazard names the copy.
START_TEST(async_copy_without_barrier_is_a_hazard)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, true, false>(&before, &out);
    expect_hazards(r, "read-after-write hazard", "// async copy");
}
END_TEST

// Without a wait the copies never land: every read of the tile is of a word
// no copy has written.
START_TEST(async_copy_never_waited_never_lands)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<true, false, false>(&before, &out);
    EXPECT(r, "global_loads", 0);
    EXPECT(r, "shared_stores", 0);
    EXPECT(r, "uninitialised_shared_reads", 128 + 32);
    for (int i = 0; i < 32; i++)
        ck_assert_msg(out[i] != out[i], "lane %d read %g from a tile no copy reached (want the NaN shared memory "
                      "starts with)", i, out[i]);
}
END_TEST

// A zero fill of all 16 bytes reads nothing and stores zeros.
START_TEST(async_copy_zero_fill_reads_nothing)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, false, true>(&before, &out);
    EXPECT(r, "global_loads", 0);
    EXPECT(r, "shared_stores", 32);
    for (int i = 0; i < 32; i++)
        ck_assert_msg(out[i] == 0.0f, "lane %d read %g, want a zero fill", i, out[i]);
}
END_TEST

void add_async_copy_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "async_copy", 10);
    tcase_add_test(tc, async_copy_lands_at_the_wait);
    tcase_add_test(tc, async_copy_without_barrier_is_a_hazard);
    tcase_add_test(tc, async_copy_never_waited_never_lands);
    tcase_add_test(tc, async_copy_zero_fill_reads_nothing);
}
