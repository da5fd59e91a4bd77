/* test_simulator, part: memory: device allocations and copies, the ledger of
 * what leaves the device, local arrays on a fiber's stack and malloc in a
 * kernel.
 */
#include "simulator_tests.h"

// ---------------------------------------------------------- device memory

START_TEST(malloc_fills_with_nan)
{
    const size_t n = 1000;
    float *d = dev_alloc<float>(n);
    std::vector<float> h = to_host(d, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(isnan(h[i]), "element %zu of new device memory is %g, not NaN", i, h[i]);
    void *zero = (void *)1;
    CUDA_OK(cudaMalloc(&zero, 0));
    CUDA_OK(cudaFree(d));
}
END_TEST

START_TEST(memcpy_wrong_direction_copies_nothing)
{
    const size_t n = 256;
    float *d = dev_alloc<float>(n);
    std::vector<float> h(n, 1.0f);
    stderr_capture cap;
    cudaError_t e1 = cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyHostToDevice);  // device -> host
    cudaError_t e2 = cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyDeviceToHost);  // host -> device
    cudaError_t e3 = cudaMemcpy(h.data(), h.data() + 128, 128 * sizeof(float), cudaMemcpyDeviceToDevice);
    std::string said = cap.finish();
    ck_assert_msg(e1 != cudaSuccess, "HostToDevice from a device source to a host destination succeeded");
    ck_assert_msg(e2 != cudaSuccess, "DeviceToHost from a host source to a device destination succeeded");
    ck_assert_msg(e3 != cudaSuccess, "DeviceToDevice between host buffers succeeded");
    ASSERT_CONTAINS(said, "direction");
    stderr_capture cap2;
    CUDA_IS(cudaErrorInvalidMemcpyDirection, cudaMemcpy(h.data(), d, n * sizeof(float), (cudaMemcpyKind)7));
    cap2.finish();
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(h[i] == 1.0f, "host element %zu changed to %g", i, h[i]);
    std::vector<float> back = to_host(d, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(isnan(back[i]), "device element %zu changed to %g", i, back[i]);
    ck_assert_int_ne(cudaGetLastError(), cudaSuccess);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());  // not sticky
}
END_TEST

START_TEST(memcpy_default_infers_direction)
{
    const size_t n = 300;
    std::vector<float> src(n), dst(n, -1.0f), hh(n, -2.0f);
    for (size_t i = 0; i < n; i++)
        src[i] = (float)i * 0.5f;
    float *a = dev_alloc<float>(n), *b = dev_alloc<float>(n);
    CUDA_OK(cudaMemcpy(a, src.data(), n * sizeof(float), cudaMemcpyDefault));  // H2D
    CUDA_OK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDefault));           // D2D
    CUDA_OK(cudaMemcpy(dst.data(), b, n * sizeof(float), cudaMemcpyDefault));  // D2H
    CUDA_OK(cudaMemcpy(hh.data(), dst.data(), n * sizeof(float), cudaMemcpyDefault));  // H2H
    for (size_t i = 0; i < n; i++) {
        ck_assert_float_eq(dst[i], src[i]);
        ck_assert_float_eq(hh[i], src[i]);
    }
    // Within one allocation, overlapping.
    CUDA_OK(cudaMemcpy(a + 1, a, (n - 1) * sizeof(float), cudaMemcpyDefault));
    std::vector<float> shifted = to_host(a, n);
    for (size_t i = 1; i < n; i++)
        ck_assert_float_eq(shifted[i], src[i - 1]);
}
END_TEST

START_TEST(memset_sets_bytes)
{
    const size_t n = 500;
    float *f = dev_alloc<float>(n);
    CUDA_OK(cudaMemset(f, 0, n * sizeof(float)));
    std::vector<float> hf = to_host(f, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_float_eq(hf[i], 0.0f);
    int *d = dev_alloc<int>(n);
    CUDA_OK(cudaMemset(d + 100, 1, 200 * sizeof(int)));  // part of it
    std::vector<int> h = to_host(d, n);
    for (size_t i = 0; i < n; i++) {
        bool inside = i >= 100 && i < 300;
        if (inside)
            ck_assert_int_eq(h[i], 0x01010101);
        else
            ck_assert_int_eq(h[i], 0x7FC00000);  // still the NaN fill
    }
}
END_TEST

// A reset frees every allocation, as a GPU's does with its context: a
// pointer from before is no longer device memory, and says why.
START_TEST(reset_frees_device_memory)
{
    float *d = dev_alloc<float>(64);
    std::vector<float> h(64);
    stderr_capture cap;
    CUDA_OK(cudaDeviceReset());
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy(h.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost));
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "cudaDeviceReset freed all 1 device allocations");
    ASSERT_CONTAINS(said, "a pointer cudaMalloc never returned, or one freed since?");
    float *again = dev_alloc<float>(64);  // the device works on
    CUDA_OK(cudaFree(again));
}
END_TEST

START_TEST(free_of_foreign_pointer_fails)
{
    float *d = dev_alloc<float>(64);
    void *host = malloc(64);
    int on_stack;
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidValue, cudaFree(host));
    CUDA_IS(cudaErrorInvalidValue, cudaFree(&on_stack));
    CUDA_IS(cudaErrorInvalidValue, cudaFree(d + 1));  // inside, not the start
    CUDA_OK(cudaFree(d));
    CUDA_IS(cudaErrorInvalidValue, cudaFree(d));  // twice
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "cudaFree");
    CUDA_OK(cudaFree(nullptr));
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    free(host);
}
END_TEST

// What the grader reads to see where C came from: copies to the host
// (cudaMemcpy and cudaMemcpyFromSymbol alike), copies from the host into
// any device memory (cudaMemcpy and cudaMemcpyToSymbol alike), and launches that were given host memory, once each however many such
// arguments.  A launch given only device pointers, a one-past-the-end
// pointer or a null one is not counted.
__device__ float ledger_symbol[64];

__global__ void ledger_copy(const float *from, float *to, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        to[i] = from[i];
}

START_TEST(ledger_counts_what_leaves_the_device)
{
    const int n = 64;
    float *a = dev_alloc<float>(n), *b = dev_alloc<float>(n);
    std::vector<float> host(n, 1.0f);
    sim_ledger at_start = sim_ledger_of();
    CUDA_OK(cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    ledger_copy<<<1, n>>>(a, b, n);
    ledger_copy<<<1, n>>>(a + n, nullptr, 0);
    CUDA_OK(cudaDeviceSynchronize());
    sim_ledger on_device = sim_ledger_of();
    ck_assert_uint_eq(on_device.copied_from_host - at_start.copied_from_host, n * sizeof(float));
    // From device memory into b: what kernels made, not counted.
    CUDA_OK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice));
    CUDA_OK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDefault));
    CUDA_OK(cudaMemcpyFromSymbol(b, ledger_symbol, n * sizeof(float), 0, cudaMemcpyDeviceToDevice));
    ck_assert_uint_eq(sim_ledger_of().copied_from_host, on_device.copied_from_host);
    ck_assert_uint_eq(on_device.copied_to_host, at_start.copied_to_host);
    ck_assert_uint_eq(on_device.host_pointer_launches, at_start.host_pointer_launches);

    stderr_capture cap;
    ledger_copy<<<1, n>>>(a, host.data(), n);          // out to the host
    ledger_copy<<<1, n>>>(host.data(), host.data(), n); // two host pointers, one launch
    CUDA_OK(cudaDeviceSynchronize());
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "kernel argument 2 is a pointer to host memory");
    CUDA_OK(cudaMemcpyFromSymbol(host.data(), ledger_symbol, n * sizeof(float)));
    CUDA_OK(cudaMemcpy(host.data(), a, 8, cudaMemcpyDeviceToHost));
    sim_ledger after = sim_ledger_of();
    ck_assert_uint_eq(after.host_pointer_launches - on_device.host_pointer_launches, 2);
    ck_assert_uint_eq(after.copied_to_host - on_device.copied_to_host, n * sizeof(float) + 8);
    ck_assert_uint_eq(after.copied_from_host, on_device.copied_from_host);
    // From the host into device memory other than C, a symbol included: a
    // product made on the host reaches C through them as well.
    CUDA_OK(cudaMemcpy(a, host.data(), 12, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpyToSymbol(ledger_symbol, host.data(), 20));
    CUDA_OK(cudaMemcpyToSymbol(ledger_symbol, a, 8, 0, cudaMemcpyDeviceToDevice)); // the device's own: not counted
    CUDA_OK(cudaMemcpyToSymbol(ledger_symbol, host.data(), 16, 0, cudaMemcpyDefault)); // by the pointer, not the kind
    sim_ledger in = sim_ledger_of();
    ck_assert_uint_eq(in.copied_from_host - after.copied_from_host, 12 + 20 + 16);
    ck_assert_uint_eq(in.copied_to_host, after.copied_to_host); // into a symbol is not to the host
    // Out of a symbol to the host, whatever kind is named.
    CUDA_OK(cudaMemcpyFromSymbol(host.data(), ledger_symbol, 24, 0, cudaMemcpyDefault));
    ck_assert_uint_eq(sim_ledger_of().copied_to_host - in.copied_to_host, 24);
    // Zeros clear a buffer and carry nothing: not counted, either way in.
    std::vector<float> zeros(n, 0.0f);
    CUDA_OK(cudaMemcpy(a, zeros.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpyToSymbol(ledger_symbol, zeros.data(), n * sizeof(float)));
    ck_assert_uint_eq(sim_ledger_of().copied_from_host, in.copied_from_host);
}
END_TEST

// Pitched memory: rows 512 bytes apart; a rectangle copied in and back
// out row by row, each row counted by the ledger as cudaMemcpy's copies are.
START_TEST(pitched_copies)
{
    const size_t width = 5, height = 3;
    float *d = nullptr;
    size_t pitch = 0;
    CUDA_OK(cudaMallocPitch(&d, &pitch, width * sizeof(float), height));
    ck_assert_uint_eq(pitch, 512);
    std::vector<float> in(width * height), out(width * height, -1.0f);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (float)i;
    CUDA_OK(cudaMemcpy2D(d, pitch, in.data(), width * sizeof(float), width * sizeof(float), height,
                         cudaMemcpyHostToDevice));
    sim_ledger before = sim_ledger_of();
    CUDA_OK(cudaMemcpy2D(out.data(), width * sizeof(float), d, pitch, width * sizeof(float), height,
                         cudaMemcpyDeviceToHost));
    ck_assert_uint_eq(sim_ledger_of().copied_to_host - before.copied_to_host, width * height * sizeof(float));
    for (size_t i = 0; i < in.size(); i++)
        ck_assert_float_eq(out[i], in[i]);
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy2D(out.data(), 4, d, pitch, 8, 1, cudaMemcpyDeviceToHost));
    ASSERT_CONTAINS(cap.finish(), "wider than the pitch");
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    CUDA_OK(cudaFree(d));
}
END_TEST

START_TEST(copy_past_end_is_refused)
{
    const size_t n = 1000;
    float *d = dev_alloc<float>(n);
    std::vector<float> h(n + 1, 3.0f);
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy(d, h.data(), (n + 1) * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy(d + 500, h.data(), 501 * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy(h.data(), d, (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_IS(cudaErrorInvalidValue, cudaMemcpy(d, d + 1, n * sizeof(float), cudaMemcpyDeviceToDevice));
    CUDA_IS(cudaErrorInvalidValue, cudaMemset(d, 0, (n + 1) * sizeof(float)));
    CUDA_IS(cudaErrorInvalidValue, cudaMemset(d + n - 1, 0, 2 * sizeof(float)));
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "cudaMemcpy");
    ASSERT_CONTAINS(said, "cudaMemset");
    for (size_t i = 0; i <= n; i++)
        ck_assert_float_eq(h[i], 3.0f);  // the refused device-to-host copy wrote nothing
    CUDA_OK(cudaMemcpy(d + 500, h.data(), 500 * sizeof(float), cudaMemcpyHostToDevice));  // exactly to the end
    std::vector<float> back = to_host(d, n);
    for (size_t i = 0; i < n; i++) {
        if (i < 500)
            ck_assert_msg(isnan(back[i]), "element %zu changed by a refused copy", i);
        else
            ck_assert_float_eq(back[i], 3.0f);
    }
    CUDA_OK(cudaDeviceSynchronize());
}
END_TEST

// --------------------------------------------------- local arrays (stacks)

// A GPU gives a thread up to 512 KiB of local memory; here a kernel's local
// arrays are on its fiber's stack, which grows to take them.
__global__ void fill_local_array(float *out, int words)
{
    volatile float local[128 * 1024];  // 512 KiB
    for (int i = 0; i < words; ++i)
        local[i] = (float)(i + (int)threadIdx.x);
    out[blockIdx.x * blockDim.x + threadIdx.x] = local[0] + local[words - 1];
}

START_TEST(local_arrays_up_to_512k_a_thread_run)
{
    const int threads = 32, blocks = 3, words = 128 * 1024;
    float *out = dev_alloc<float>(threads * blocks);
    fill_local_array<<<blocks, threads>>>(out, words);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> got = to_host(out, threads * blocks);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            ck_assert_float_eq(got[b * threads + t], (float)(2 * t + words - 1));
}
END_TEST

// More than a fiber's stack may have: the thread stops with why, and no
// other thread's stack is written.
__global__ void overflow_local_array(float *out)
{
    volatile float local[160 * 1024];  // 640 KiB
    for (int i = 0; i < 160 * 1024; i += 1024)
        local[i] = 1.0f;
    out[threadIdx.x] = local[threadIdx.x];
}

START_TEST(local_arrays_past_the_stack_stop_the_kernel)
{
    float *out = dev_alloc<float>(64);
    stderr_capture cap;
    overflow_local_array<<<1, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    std::string said = cap.finish();
    ck_assert_int_eq(e, cudaErrorIllegalAddress);
    ASSERT_CONTAINS(said, "its local variables need more than 576 KiB of stack");
    expect_sticky(cudaErrorIllegalAddress, out);
}
END_TEST

// ------------------------------------------------ malloc in a kernel (heap)

// Each thread takes a block of `bytes` from the device's heap, writes it
// and keeps its address; NaN read first shows it is new device memory.
__global__ void take_heap_blocks(float **blocks, size_t bytes, int *saw_nan)
{
    unsigned t = threadIdx.x;
    float *p = (float *)malloc(bytes);
    blocks[t] = p;
    if (!p)
        return;
    if (isnan(p[0]))
        atomicAdd(saw_nan, 1);
    p[0] = (float)t;
}

// A later kernel reads each block through its address, then frees it.
__global__ void read_and_free_heap_blocks(float **blocks, float *out)
{
    unsigned t = threadIdx.x;
    out[t] = blocks[t] ? blocks[t][0] : -1.0f;
    free(blocks[t]);
}

START_TEST(malloc_in_a_kernel_takes_device_heap_memory)
{
    size_t heap = 0;
    CUDA_OK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    ck_assert_uint_eq(heap, 8u << 20);
    const int threads = 64;
    float **blocks = dev_alloc<float *>(threads);
    float *out = dev_alloc<float>(threads);
    int *saw_nan = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(saw_nan, 0, sizeof(int)));
    take_heap_blocks<<<1, threads>>>(blocks, 1024, saw_nan);
    CUDA_OK(cudaDeviceSynchronize());
    ck_assert_int_eq(to_host(saw_nan, 1)[0], threads);
    // Blocks are device memory: the host cannot read them (their addresses
    // are not cudaMalloc's, so a copy from one is refused), a kernel can.
    std::vector<float *> where = to_host(blocks, threads);
    for (int t = 0; t < threads; t++)
        ck_assert_msg(where[t] != nullptr, "thread %d got no block", t);
    read_and_free_heap_blocks<<<1, threads>>>(blocks, out);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> got = to_host(out, threads);
    for (int t = 0; t < threads; t++)
        ck_assert_float_eq(got[t], (float)t);
    // Freed blocks are taken again: 64 rounds of 64 x 64 KiB would not fit
    // in the 8 MiB heap otherwise.
    for (int round = 0; round < 64; round++) {
        take_heap_blocks<<<1, threads>>>(blocks, 64 * 1024, saw_nan);
        read_and_free_heap_blocks<<<1, threads>>>(blocks, out);
    }
    CUDA_OK(cudaDeviceSynchronize());
    got = to_host(out, threads);
    for (int t = 0; t < threads; t++)
        ck_assert_float_eq(got[t], (float)t);
    // More than the heap holds: NULL, as on a GPU.
    take_heap_blocks<<<1, 1>>>(blocks, 9u << 20, saw_nan);
    CUDA_OK(cudaDeviceSynchronize());
    ck_assert_ptr_null(to_host(blocks, 1)[0]);
    // Its size is set before the first kernel that uses it, not after.
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidValue, cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20));
    ASSERT_CONTAINS(cap.finish(), "the heap is in use already");
}
END_TEST

START_TEST(the_device_heap_takes_its_size_from_cudaDeviceSetLimit)
{
    CUDA_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20));
    size_t heap = 0;
    CUDA_OK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    ck_assert_uint_eq(heap, 64u << 20);
    float **blocks = dev_alloc<float *>(2);
    int *saw_nan = dev_alloc<int>(1);
    take_heap_blocks<<<1, 2>>>(blocks, 24u << 20, saw_nan);  // 48 MiB of 64
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float *> where = to_host(blocks, 2);
    ck_assert_ptr_nonnull(where[0]);
    ck_assert_ptr_nonnull(where[1]);
    // The other settings are kept and read back; one CUDA lacks is refused.
    CUDA_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 16u << 20));
    size_t fifo = 0;
    CUDA_OK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    ck_assert_uint_eq(fifo, 16u << 20);
    stderr_capture cap;
    CUDA_IS(cudaErrorUnsupportedLimit, cudaDeviceSetLimit((cudaLimit)42, 1));
    cap.finish();
    CUDA_IS(cudaErrorUnsupportedLimit, cudaGetLastError());
}
END_TEST

void add_memory_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "local_arrays", 20);
    tcase_add_test(tc, local_arrays_up_to_512k_a_thread_run);
    tcase_add_test(tc, local_arrays_past_the_stack_stop_the_kernel);

    tc = tcase(s, "device_heap", 20);
    tcase_add_test(tc, malloc_in_a_kernel_takes_device_heap_memory);
    tcase_add_test(tc, the_device_heap_takes_its_size_from_cudaDeviceSetLimit);

    tc = tcase(s, "device_memory", 10);
    tcase_add_test(tc, malloc_fills_with_nan);
    tcase_add_test(tc, memcpy_wrong_direction_copies_nothing);
    tcase_add_test(tc, memcpy_default_infers_direction);
    tcase_add_test(tc, memset_sets_bytes);
    tcase_add_test(tc, free_of_foreign_pointer_fails);
    tcase_add_test(tc, reset_frees_device_memory);
    tcase_add_test(tc, copy_past_end_is_refused);
    tcase_add_test(tc, ledger_counts_what_leaves_the_device);
    tcase_add_test(tc, pitched_copies);
}
