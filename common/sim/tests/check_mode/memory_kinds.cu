/* test_check_mode, part: addresses: out of bounds in an allocation's slack
 * or past dynamic shared memory, host memory, __device__ variables, the
 * device heap, and a kernel that never ends.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

// ------------------------------------------------------------ out of bounds

__global__ void read_shifted(const float *in, float *out, int n, int shift)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = in[i + shift];
}

// 1000 floats (4000 bytes): in[1000] is in the allocation's slack up to
// 4096 bytes, so nothing faults, but the checker sees it.
START_TEST(out_of_bounds_read_in_slack)
{
    const int n = 1000;
    float *in = dev_floats(n), *out = dev_floats(n);
    checked_run run;
    read_shifted<<<4, 250>>>(in, out, n, 1);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "out_of_bounds", 1);
    expect_clean_except(r, {"out_of_bounds"});
    const finding_line &f = one_finding(r, {"out-of-bounds read"});
    ck_assert_msg(contains(f.text, "out-of-bounds read at " + this_file_name() + ":"), "%s", f.whole.c_str());
    ck_assert_msg(contains(f.text, "block (3,0,0): thread (249,0,0)"), "%s", f.whole.c_str());
    ck_assert_msg(contains(f.text, "0 bytes past the end of a 4000-byte device allocation"), "%s", f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    EXPECT(r, "global_stores", n);
}
END_TEST

// A kernel that uses dynamic shared memory past what its launch gave it:
// a GPU faults there, so check mode reports it, naming the launch's size.
__global__ void reverse_in_dynamic_shared(const float *in, float *out)
{
    extern __shared__ float staged[];
    staged[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

START_TEST(dynamic_shared_past_the_launch_size)
{
    // (A launch that gives the whole size finds nothing: every stage 08
    // solution's check run is such a launch.)
    float *in = dev_floats(64), *out = dev_floats(64);
    checked_run run;
    reverse_in_dynamic_shared<<<1, 64, 32 * sizeof(float)>>>(in, out);  // half the size
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    // The 32 upper threads store past the 128 bytes, and 32 lower ones read there.
    EXPECT(r, "out_of_bounds", 64);
    const finding_line &f = one_finding(r, {"out-of-bounds write"});
    ck_assert_msg(contains(f.text, "of dynamic shared memory (extern __shared__), of which the launch asked for 128 bytes"),
                  "%s", f.whole.c_str());
}
END_TEST

// ------------------------------------------------------------- host memory

static float host_array[64];

__global__ void read_through(const float *p, float *out) { out[threadIdx.x] = p[threadIdx.x]; }

START_TEST(host_pointer_read)
{
    for (int i = 0; i < 64; i++)
        host_array[i] = (float)i;
    float *out = dev_floats(64);
    checked_run run;
    read_through<<<1, 64>>>(host_array, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 64);  // every thread, once
    EXPECT(r, "global_stores", 64);
    expect_clean_except(r, {"host_accesses"});
    const finding_line &f = one_finding(r, {"host memory"});
    ck_assert_msg(contains(f.text, "host memory read by a kernel at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
}
END_TEST

// A __device__ variable lives in host memory on the simulator, but it is
// global memory on a GPU: reads and writes of it are global accesses, not
// host memory (the rewrite registers it, rewrite_launch.c).
// Declared by a macro used twice too: each registration is named afresh.
#define DEVICE_TABLE(name) __device__ float name[32];
DEVICE_TABLE(table_low)
DEVICE_TABLE(table_high)
__device__ int device_counter;

__global__ void use_device_variables(float *out)
{
    float *table = threadIdx.x < 32 ? table_low : table_high;
    table[threadIdx.x % 32] = (float)threadIdx.x;
    if (threadIdx.x == 0)
        device_counter = 1;
    out[threadIdx.x] = table[threadIdx.x % 32] * device_counter;
}

// One thread copies a row into shared memory in a loop of the run's length:
// a compiler would make that loop a memcpy call, whose accesses no hook
// sees; check builds keep it a loop (backend.mk), so every load and store
// counts and the reads after the barrier read what was written.
__global__ void one_thread_copies(const float *in, float *out, int count)
{
    __shared__ float row[64];
    if (threadIdx.x == 0)
        for (int i = 0; i < count; i++)
            row[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = row[threadIdx.x];
}

START_TEST(copy_loops_are_counted)
{
    const int n = 64;
    float *in = dev_floats(n), *out = dev_floats(n);
    CUDA_OK(cudaMemset(in, 0, n * sizeof(float)));
    checked_run run;
    one_thread_copies<<<1, n>>>(in, out, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "global_loads", n);
    EXPECT(r, "shared_stores", n);
    EXPECT(r, "shared_loads", n);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT(r, "hazards", 0);
}
END_TEST

START_TEST(device_variables_are_global_memory)
{
    float *out = dev_floats(64);
    checked_run run;
    use_device_variables<<<1, 64>>>(out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 0);
    EXPECT(r, "global_stores", 64 + 1 + 64);
    EXPECT(r, "global_loads", 64 + 64);
    ck_assert_int_eq(r.findings.size(), 0);
}
END_TEST

// malloc in a kernel takes device memory from the device's heap, on a GPU
// and here (sim/device_heap.cpp): accesses to it are global ones.
__global__ void uses_the_device_heap(float *out)
{
    volatile float *scratch = (volatile float *)malloc(4 * sizeof(float));  // kept: read back
    scratch[0] = (float)threadIdx.x;
    out[threadIdx.x] = scratch[0];
    free((void *)scratch);
}

START_TEST(device_heap_blocks_are_global_memory)
{
    float *out = dev_floats(64);
    checked_run run;
    uses_the_device_heap<<<1, 64>>>(out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 0);
    EXPECT(r, "global_stores", 64 + 64);
    EXPECT(r, "global_loads", 64);
    ck_assert_int_eq(r.findings.size(), 0);
}
END_TEST

// ------------------------------------------------------------- a spin

// Never ends, and loads on every turn (volatile: the loop cannot be folded
// away): check mode's records would grow until the run ran out of memory.
__global__ void spin_loading(const float *p, float *out)
{
    float sum = 0.0f;
    for (unsigned i = 0;; i = (i + 1) % 64)
        sum += ((volatile const float *)p)[i];
    out[threadIdx.x] = sum;
}

START_TEST(spinning_kernel_is_stopped)
{
    // A 2^20-record limit instead of 2^24: the same stop, sixteen times
    // sooner (read at the first record, in this test's own process).
    setenv("SIM_CHECK_PHASE_RECORDS", "1048576", 1);
    float *in = dev_floats(64), *out = dev_floats(32);
    checked_run run;
    spin_loading<<<1, 32>>>(in, out);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    check_report r = run.finish();
    ck_assert_msg(e == cudaErrorLaunchTimeout, "got %s, want cudaErrorLaunchTimeout; stderr:\n%s", cudaGetErrorName(e),
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "seems not to finish"), "the message does not call it a spin:\n%s",
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "more than 1048576 memory accesses"), "not stopped at the limit asked for:\n%s",
                  r.human.c_str());
}
END_TEST

void add_memory_kind_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "bad_addresses", 10);
    tcase_add_test(tc, out_of_bounds_read_in_slack);
    tcase_add_test(tc, dynamic_shared_past_the_launch_size);
    tcase_add_test(tc, host_pointer_read);
    tcase_add_test(tc, device_variables_are_global_memory);
    tcase_add_test(tc, device_heap_blocks_are_global_memory);
    tcase_add_test(tc, copy_loops_are_counted);

    tc = tcase(s, "bounds", 120);
    tcase_add_test(tc, spinning_kernel_is_stopped);
}
