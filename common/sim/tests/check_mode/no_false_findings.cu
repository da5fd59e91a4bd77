/* test_check_mode, part: no false findings: a thread's own words, a warp's
 * meetings, atomics, and device-side copies are counted and raise nothing
 * that is not there.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

// ------------------------------------------------------ no false findings

// Each thread writes, updates and reads back only its own shared word, with
// no barrier: nothing is shared, so nothing is a hazard.  (volatile keeps
// every access: otherwise the compiler forwards a thread's store to its
// own load and no shared access is left to check.)
__global__ void own_words_only(const float *in, float *out, int rounds)
{
    __shared__ volatile float s[64];
    unsigned i = threadIdx.x;
    s[i] = in[i];
    for (int k = 0; k < rounds; k++) {
        s[i] = s[i] * 0.5f + in[i];
        out[i] = s[i];
    }
}

START_TEST(own_words_have_no_hazard)
{
    float *in = dev_floats(64), *out = dev_floats(64);
    checked_run run;
    own_words_only<<<1, 64>>>(in, out, 3);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 64 * (1 + 3));  // per thread: 1, then 1 per round
    EXPECT(r, "shared_loads", 64 * (2 * 3));   // 2 per round
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// Lanes of one warp pass values through shared memory, ordered by
// __syncwarp() alone: each writes its word, meets the others, reads its
// neighbour's, meets them again, and writes its own word anew.  Without the
// meetings each step is a hazard; with them, none.  Across warps a
// __syncwarp() orders nothing.
__global__ void warp_passes_through_shared(float *out, int meet, int across_warps)
{
    __shared__ volatile float s[64];
    unsigned t = threadIdx.x, lane = t % 32, from = across_warps ? (t + 32) % 64 : t - lane + (lane + 1) % 32;
    s[t] = (float)t;
    if (meet)
        __syncwarp();
    float v = s[from];
    if (meet)
        __syncwarp();
    s[t] = v + 1.0f;
    out[t] = v;
}

static check_report run_warp_passes(int meet, int across_warps)
{
    float *out = dev_floats(64);
    checked_run run;
    warp_passes_through_shared<<<1, 64>>>(out, meet, across_warps);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    return run.finish();
}

START_TEST(warp_meetings_order_a_warp)
{
    check_report r = run_warp_passes(1, 0);
    EXPECT(r, "hazards", 0);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// Every hazard between lanes of one warp (code written for warps that ran
// in lockstep): the finding offers __syncwarp() and says why.
START_TEST(without_warp_meetings_a_hazard)
{
    check_report r = run_warp_passes(0, 0);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    for (const finding_line *f : r.matching({"hazard"}))
        ck_assert_msg(contains(f->text, "a __syncwarp() (or __syncthreads()) is missing after") &&
                          contains(f->text, "lanes of one warp"),
                      "%s", f->whole.c_str());
}
END_TEST

// Across warps only the block's barrier orders them, and only it is named.
START_TEST(warp_meetings_order_no_other_warp)
{
    check_report r = run_warp_passes(1, 1);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    for (const finding_line *f : r.matching({"hazard"}))
        ck_assert_msg(contains(f->text, "a __syncthreads() is missing") && !contains(f->text, "__syncwarp"), "%s",
                      f->whole.c_str());
}
END_TEST

// Atomics compile to no plain load or store: check mode is told of each.
// Thread 0 zeroes a shared word; after a barrier (or, with `no_barrier`,
// without one) every thread adds to it atomically, and to a global total;
// after another barrier thread 0 stores the sum.  Atomics beside atomics
// are no hazard; a plain store beside them is.
__global__ void atomic_totals(float *out, int no_barrier)
{
    __shared__ float sum;
    if (threadIdx.x == 0)
        sum = 0.0f;
    if (!no_barrier)
        __syncthreads();
    atomicAdd(&sum, 1.0f);
    atomicAdd(&out[1], 1.0f);
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = sum;
}

static check_report run_atomic_totals(int no_barrier, std::vector<float> *out_host)
{
    float *out = dev_floats(2);
    CUDA_OK(cudaMemset(out, 0, 2 * sizeof(float)));
    checked_run run;
    atomic_totals<<<1, 64>>>(out, no_barrier);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    *out_host = to_host(out, 2);
    return r;
}

START_TEST(atomics_are_counted_and_race_free)
{
    std::vector<float> out;
    check_report r = run_atomic_totals(0, &out);
    ck_assert_float_eq(out[0], 64.0f);
    ck_assert_float_eq(out[1], 64.0f);
    EXPECT(r, "global_stores", 64 + 1);  // each thread's atomic, and thread 0's store
    EXPECT(r, "shared_stores", 1 + 64);  // the zero, and each thread's atomic
    EXPECT(r, "global_loads", 0);        // the atomics' old values are dropped: no load
    EXPECT(r, "shared_loads", 1);        // thread 0's read of the sum
    EXPECT(r, "hazards", 0);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

START_TEST(plain_store_beside_atomics_is_a_hazard)
{
    std::vector<float> out;
    check_report r = run_atomic_totals(1, &out);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
}
END_TEST

// An atomic whose old value the kernel uses has loaded the word (a GPU's
// ATOM, where a dropped value makes a RED): counted once as a load of its
// width, in global and in shared memory, however often the value is read.
__global__ void atomic_tickets(unsigned *counter, unsigned *out)
{
    __shared__ unsigned local;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    auto ticket = atomicAdd(counter, 1u);
    unsigned mine = atomicAdd(&local, 1u);
    out[ticket] = ticket + mine - mine;
}

START_TEST(atomic_values_used_are_loads)
{
    unsigned *counter = nullptr, *out = nullptr;
    CUDA_OK(cudaMalloc(&counter, sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&out, 64 * sizeof(unsigned)));
    CUDA_OK(cudaMemset(counter, 0, sizeof(unsigned)));
    checked_run run;
    atomic_tickets<<<1, 64>>>(counter, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<unsigned> tickets(64);
    CUDA_OK(cudaMemcpy(tickets.data(), out, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(tickets[i], i);
    EXPECT(r, "global_loads", 64);
    EXPECT(r, "global_load_bytes", 64 * 4);
    EXPECT(r, "global_stores", 64 + 64);  // the atomics, and the stores of the tickets
    EXPECT(r, "shared_loads", 64);
    EXPECT(r, "shared_stores", 1 + 64);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// memcpy and memset in a kernel are counted as the accesses they make: the
// widest the addresses' alignment allows.  Sixteen threads each copy four
// floats into a shared tile (one 16-byte load and store each), and three
// more (12 bytes: an 8-byte access, then a 4-byte one); then each zeroes
// four floats of the output and stores one.
__global__ void copies_by_memcpy(const float *in, float *out)
{
    __shared__ SIM_ALIGN(16) float tile[64];
    __shared__ SIM_ALIGN(16) float three[64];
    int i = threadIdx.x;
    memcpy(&tile[4 * i], &in[4 * i], 4 * sizeof(float));
    memcpy(&three[4 * i], &in[4 * i], 3 * sizeof(float));
    __syncthreads();
    memset(&out[4 * i], 0, 4 * sizeof(float));
    out[4 * i] = tile[63 - 4 * i] + three[62 - 4 * i];
}

START_TEST(device_memcpy_and_memset_are_counted)
{
    float *in = dev_floats(64), *out = dev_floats(64);
    std::vector<float> ramp(64);
    for (int i = 0; i < 64; i++)
        ramp[i] = (float)i;
    CUDA_OK(cudaMemcpy(in, ramp.data(), sizeof(float) * 64, cudaMemcpyHostToDevice));
    checked_run run;
    copies_by_memcpy<<<1, 16>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<float> got = to_host(out, 64);
    for (int i = 0; i < 16; i++) {
        ck_assert_float_eq(got[4 * i], (float)(63 - 4 * i) + (float)(62 - 4 * i));
        ck_assert_float_eq(got[4 * i + 1], 0.0f);
    }
    EXPECT(r, "global_loads", 16 + 16 * 2);
    EXPECT(r, "global_load_bytes", 16 * (16 + 12));
    EXPECT(r, "shared_stores", 16 + 16 * 2);
    EXPECT(r, "shared_store_bytes", 16 * (16 + 12));
    EXPECT(r, "global_stores", 16 + 16);  // the memsets (16 bytes each), and one float each
    EXPECT(r, "global_store_bytes", 16 * 16 + 16 * 4);
    EXPECT(r, "hazards", 0);  // (the strided reads and the 8-byte stores have bank conflicts: no matter)
    EXPECT(r, "out_of_bounds", 0);
}
END_TEST

// A copy of a whole structure is no load or store instruction in clang's
// IR (an llvm.memcpy call, expanded later): the check build calls the
// simulator in its place (compile_checked.sh), so each thread's copy of 8
// floats into a shared tile is two 16-byte loads and stores, and the reads
// of the tile after the barrier read words that were written.
struct eight_floats {
    float v[8];
};

__global__ void copies_by_assignment(const float *in, float *out, int lane_of_row)
{
    __shared__ SIM_ALIGN(16) float tile[8 * 8];
    int i = threadIdx.x;
    *(eight_floats *)&tile[8 * i] = *(const eight_floats *)&in[8 * i];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < 8; k++)
        sum += tile[8 * ((i + lane_of_row) % 8) + k];
    out[i] = sum;
}

START_TEST(structure_copies_are_counted)
{
    float *in = dev_floats(64), *out = dev_floats(8);
    std::vector<float> ramp(64);
    for (int i = 0; i < 64; i++)
        ramp[i] = (float)i;
    CUDA_OK(cudaMemcpy(in, ramp.data(), sizeof(float) * 64, cudaMemcpyHostToDevice));
    checked_run run;
    copies_by_assignment<<<1, 8>>>(in, out, 1);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<float> got = to_host(out, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_float_eq(got[i], (float)(8 * (8 * ((i + 1) % 8)) + 28));
    EXPECT(r, "global_load_bytes", 8 * 32);
    EXPECT(r, "global_loads", 8 * 2);
    EXPECT(r, "shared_store_bytes", 8 * 32);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT(r, "hazards", 0);
}
END_TEST

// An atomic one past the end of an allocation is out of bounds, as a store is.
__global__ void atomic_past_end(int *counts, int n)
{
    if (threadIdx.x == 0)
        atomicAdd(&counts[n], 1);
}

START_TEST(atomic_out_of_bounds_is_found)
{
    const int n = 1000;  // as out_of_bounds_read_in_slack: the word past the end is in the allocation's slack
    int *counts = nullptr;
    CUDA_OK(cudaMalloc(&counts, n * sizeof(int)));
    checked_run run;
    atomic_past_end<<<1, 32>>>(counts, n);
    cudaDeviceSynchronize();  // the store faults, as a GPU's would (its error is not what is tested here)
    check_report r = run.finish();
    EXPECT(r, "out_of_bounds", 1);
    one_finding(r, {"out-of-bounds write"});
}
END_TEST

void add_no_false_finding_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "no_false_findings", 20);
    tcase_add_test(tc, own_words_have_no_hazard);
    tcase_add_test(tc, warp_meetings_order_a_warp);
    tcase_add_test(tc, without_warp_meetings_a_hazard);
    tcase_add_test(tc, warp_meetings_order_no_other_warp);
    tcase_add_test(tc, atomics_are_counted_and_race_free);
    tcase_add_test(tc, atomic_values_used_are_loads);
    tcase_add_test(tc, device_memcpy_and_memset_are_counted);
    tcase_add_test(tc, structure_copies_are_counted);
    tcase_add_test(tc, plain_store_beside_atomics_is_a_hazard);

    tc = tcase(s, "bad_addresses", 10);
    tcase_add_test(tc, atomic_out_of_bounds_is_found);
}
