/* test_simulator, part: faults: a host touching device memory, and kernels
 * reading or writing outside their allocations, on any thread; the error
 * after one is sticky.
 */
#include "simulator_tests.h"

// ------------------------------------------- host use of device pointers

// The process is meant to die: its report is not wanted in the test output.
static void silence_stderr()
{
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 2);
}

START_TEST(host_read_of_device_memory_dies)
{
    float *d = dev_alloc<float>(16);
    silence_stderr();
    volatile float *p = d;
    float x = p[3];
    (void)x;
}
END_TEST

START_TEST(host_write_after_a_launch_dies)
{
    float *d = dev_alloc<float>(16);
    int *flag = dev_alloc<int>(1);
    set_flag<<<2, 32>>>(flag);  // memory is open during the launch, closed after
    CUDA_OK(cudaGetLastError());
    silence_stderr();
    volatile float *p = d;
    p[0] = 1.0f;
}
END_TEST

// ------------------------------------------ out-of-bounds kernel accesses

__global__ void copy_shifted(const float *in, float *out, long shift)
{
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + shift];
}

__global__ void write_shifted(float *out, long shift)
{
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + shift] = 1.0f;
}

// Every thread writes its own element; one thread also writes out[index].
__global__ void poke(float *out, long index, unsigned bad_block, unsigned bad_thread)
{
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f;
    if (blockIdx.x == bad_block && threadIdx.x == bad_thread)
        out[index] = 1.0f;
}

// Threads >= 40 of block `bad` return before the barrier the others reach.
__global__ void diverge_in_one_block_at(int *out, unsigned bad)
{
    if (blockIdx.x == bad && threadIdx.x >= 40)
        return;
    __syncthreads();
    out[0] = 1;
}

static float *filled(size_t n, float v)
{
    float *d = dev_alloc<float>(n);
    to_device(d, std::vector<float>(n, v));
    return d;
}

START_TEST(read_one_past_end)
{
    const size_t n = 1024;  // 4096 bytes: a 256-byte multiple, so no slack
    float *in = filled(n, 1.0f), *out = filled(n, 0.0f);
    stderr_capture cap;
    copy_shifted<<<4, 256>>>(in, out, 1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ck_assert_int_eq(cudaErrorIllegalAddress, 700);
    ASSERT_CONTAINS(said, "thread (255,0,0) of block (3,0,0)");
    ASSERT_CONTAINS(said, "past the end of a 4096-byte device allocation");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

START_TEST(write_one_past_end)
{
    const size_t n = 1024;
    float *out = filled(n, 0.0f);
    stderr_capture cap;
    write_shifted<<<4, 256>>>(out, 1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "thread (255,0,0) of block (3,0,0)");
    ASSERT_CONTAINS(said, "past the end of a 4096-byte device allocation");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// A matrix the harness named (sim_name_allocation) is named in the message,
// with its shape, and not by a byte count.
START_TEST(named_matrix_in_the_message)
{
    const size_t n = 1024;  // a 32 x 32 matrix
    float *out = filled(n, 0.0f);
    sim_name_allocation(out, "C", 32);
    stderr_capture cap;
    write_shifted<<<4, 256>>>(out, 1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "0 bytes past the end of C (32 x 32 floats)");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

START_TEST(write_one_before_start)
{
    const size_t n = 1024;
    float *out = filled(n, 0.0f);
    stderr_capture cap;
    write_shifted<<<4, 256>>>(out, -1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "thread (0,0,0) of block (0,0,0)");
    ASSERT_CONTAINS(said, "before the start of a 4096-byte device allocation");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// An allocation whose size is not a 256-byte multiple has slack after it:
// a write there does not fault but is found after the kernel.
START_TEST(write_into_slack_past_end)
{
    const size_t n = 1000;
    float *out = filled(n, 0.0f);
    stderr_capture cap;
    poke<<<4, 250>>>(out, 1000, 3, 249);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "past the end of a 4000-byte device allocation");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

static bool page_is_mapped(const void *addr)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *start = (void *)((uintptr_t)addr / page * page);
    return !(msync(start, page, MS_ASYNC) == -1 && errno == ENOMEM);
}

START_TEST(write_far_past_end)
{
    const size_t n = 1024;
    float *out = filled(n, 0.0f);
    // An index a long way past the end, at an address nothing is mapped at
    // (checked, so the test does not depend on the process's layout).
    long index = 1L << 22;  // 16 MiB past the start
    while (page_is_mapped(out + index) && index < (1L << 36))
        index *= 2;
    ck_assert_msg(!page_is_mapped(out + index), "found no unmapped address past the allocation");
    stderr_capture cap;
    poke<<<4, 256>>>(out, index, 2, 5);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "thread (5,0,0) of block (2,0,0)");
    ASSERT_CONTAINS(said, "not device memory");
    ck_assert_msg(getpid() > 0, "alive");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// A fault on a worker thread other than the launching one: blocks that the
// launching thread runs only sleep a little (so the helpers get blocks), the
// others write one element past the end.
__global__ void poke_off_launcher(float *out, long n, long launcher)
{
    if (os_thread_id() == launcher) {
        if (threadIdx.x == 0)
            usleep(2000);
        return;
    }
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f;
    if (threadIdx.x == 7)
        out[n] = 1.0f;
}

START_TEST(fault_on_a_worker_thread)
{
    ck_assert_int_eq(setenv("SIM_THREADS", "4", 1), 0);
    const size_t n = 64 * 256;
    float *out = filled(n, 0.0f);
    stderr_capture cap;
    poke_off_launcher<<<64, 256>>>(out, (long)n, os_thread_id());
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "thread (7,0,0) of block (");
    ASSERT_CONTAINS(said, "past the end of a 65536-byte device allocation");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// Every thread of every block reads into the guard page, on four OS
// threads at once: one report, one error, no crash.
__global__ void read_guard(const float *in, float *out, long n)
{
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[n + i % 1024];
}

START_TEST(every_thread_faults)
{
    ck_assert_int_eq(setenv("SIM_THREADS", "4", 1), 0);
    const size_t n = 64 * 256;
    float *in = filled(n, 1.0f), *out = filled(n, 0.0f);
    stderr_capture cap;
    read_guard<<<64, 256>>>(in, out, (long)n);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    size_t reports = 0;
    for (size_t at = said.find("failed:"); at != std::string::npos; at = said.find("failed:", at + 1))
        reports++;
    ck_assert_msg(reports == 1, "%zu failure reports for one launch:\n%s", reports, said.c_str());
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// cudaDeviceReset clears a sticky error; the worker threads, whose fibers
// were abandoned mid-kernel, must then run kernels, and catch faults, again.
// A reset frees device memory too, so each stretch allocates its own.
START_TEST(reset_after_faults_recovers)
{
    ck_assert_int_eq(setenv("SIM_THREADS", "2", 1), 0);
    const int n = 1024, blocks = 4;
    std::vector<int> in(blocks * n);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (int)(i * 13 + 1);
    for (int round = 0; round < 2; round++) {
        float *f = filled(n, 0.0f);
        stderr_capture cap;
        write_shifted<<<4, 256>>>(f, 1);  // faults
        cap.finish();
        CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
        stderr_capture reset_cap;
        CUDA_OK(cudaDeviceReset());
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        int *flag = dev_alloc<int>(1);
        stderr_capture cap2;
        diverge_in_one_block_at<<<blocks, 64>>>(flag, 1);  // divergent barrier
        cap2.finish();
        CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
        CUDA_OK(cudaDeviceReset());
        reset_cap.finish();
        int *d_in = dev_alloc<int>(in.size()), *d_out = dev_alloc<int>(in.size());
        to_device(d_in, in);
        reverse_in_block<<<blocks, n>>>(d_in, d_out);  // a barrier kernel on the same workers
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        std::vector<int> out = to_host(d_out, in.size());
        for (int b = 0; b < blocks; b++)
            for (int t = 0; t < n; t++)
                ck_assert_msg(out[b * n + t] == in[b * n + n - 1 - t], "round %d, block %d thread %d: %d", round, b,
                              t, out[b * n + t]);
    }
}
END_TEST

// BUG (reported, not fixed here): an allocation has a single guard page on
// either side, and beyond it lies whatever the process mapped before.  For
// the first allocation that is host memory (in this binary, the 256 KiB
// alternate signal stack that install_fault_handler() mallocs, hence mmaps,
// in that same cudaMalloc), so an index a few pages past the end reads or
// writes host memory and the launch reports success.
START_TEST(write_two_pages_past_end_of_first_allocation)
{
    const size_t n = 1024;
    float *out = filled(n, 0.0f);  // the process's first cudaMalloc
    long index = (long)n + 2048;   // 8 KiB past the end: one page beyond the guard page
    stderr_capture cap;
    poke<<<4, 256>>>(out, index, 0, 0);
    cap.finish();
    CUDA_IS(cudaErrorIllegalAddress, cudaDeviceSynchronize());
}
END_TEST

void add_fault_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "host_dereference", 10);
    tcase_add_test_raise_signal(tc, host_read_of_device_memory_dies, SIGSEGV);
    tcase_add_test_raise_signal(tc, host_write_after_a_launch_dies, SIGSEGV);

    tc = tcase(s, "kernel_out_of_bounds", 10);
    tcase_add_test(tc, read_one_past_end);
    tcase_add_test(tc, write_one_past_end);
    tcase_add_test(tc, named_matrix_in_the_message);
    tcase_add_test(tc, write_one_before_start);
    tcase_add_test(tc, write_into_slack_past_end);
    tcase_add_test(tc, write_far_past_end);
    tcase_add_test(tc, fault_on_a_worker_thread);
    tcase_add_test(tc, every_thread_faults);
    tcase_add_test(tc, reset_after_faults_recovers);
    tcase_add_test(tc, write_two_pages_past_end_of_first_allocation);  // fails: simulator bug, see the test
}
