// What the GPU ledger (grader/gpu_ledger.cpp) counts, without a GPU: its
// wrappers are called directly, and CUDA's functions behind them are
// stand-ins below that succeed and say which pointers are device memory.
// That every call of a real lab_exec reaches a wrapper is
// grader/tests/ledger_wraps.sh's to show.
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gpu_ledger.h"

// Device memory, as the stand-in cudaPointerGetAttributes sees it.
static char device[4096];
static char host[4096];
static bool malloc_host_fails;

extern "C" cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p)
{
    const char *c = static_cast<const char *>(p);
    a->type = c >= device && c < device + sizeof device ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
    return cudaSuccess;
}
extern "C" cudaError_t cudaGetLastError(void) { return cudaSuccess; }

extern "C" cudaError_t __real_cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind) { return cudaSuccess; }
extern "C" cudaError_t __real_cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind)
{
    return cudaSuccess;
}
extern "C" cudaError_t __real_cudaMemcpyFromSymbol(void *, const void *, size_t, size_t, cudaMemcpyKind)
{
    return cudaSuccess;
}
extern "C" cudaError_t __real_cudaMemcpyToSymbol(const void *, const void *, size_t, size_t, cudaMemcpyKind)
{
    return cudaSuccess;
}
extern "C" cudaError_t __real_cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t)
{
    return cudaSuccess;
}
extern "C" cudaError_t __real_cudaMallocHost(void **p, size_t)
{
    *p = host;
    return malloc_host_fails ? cudaErrorMemoryAllocation : cudaSuccess;
}

extern "C" cudaError_t __wrap_cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
extern "C" cudaError_t __wrap_cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);
extern "C" cudaError_t __wrap_cudaMemcpyFromSymbol(void *, const void *, size_t, size_t, cudaMemcpyKind);
extern "C" cudaError_t __wrap_cudaMemcpyToSymbol(const void *, const void *, size_t, size_t, cudaMemcpyKind);
extern "C" cudaError_t __wrap_cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
extern "C" cudaError_t __wrap_cudaMallocHost(void **, size_t);

// C is the second half of device memory; A and B the first.
static char *const C = device + 2048;

START_TEST(copies_outside_matmul_are_not_counted)
{
    __wrap_cudaMemcpy(host, device, 400, cudaMemcpyDeviceToHost);
    gpu_ledger_begin();
    matmul_ledger m = gpu_ledger_end();
    ck_assert_uint_eq(m.copied_to_host, 0);
}
END_TEST

START_TEST(copies_to_the_host_are_counted_by_kind_and_by_pointer)
{
    gpu_ledger_begin();
    __wrap_cudaMemcpy(host, device, 400, cudaMemcpyDeviceToHost);
    __wrap_cudaMemcpy(host, device, 40, cudaMemcpyDefault);       // where the pointers lead: to the host
    __wrap_cudaMemcpy(device + 8, device, 4, cudaMemcpyDefault);  // device to device
    __wrap_cudaMemcpy(device + 8, device + 100, 400, cudaMemcpyDefault); // device to device again
    __wrap_cudaMemcpyFromSymbol(host, "symbol", 16, 0, cudaMemcpyDeviceToHost);
    __wrap_cudaMemcpy2D(host, 64, device, 64, 8, 3, cudaMemcpyDeviceToHost);
    matmul_ledger m = gpu_ledger_end();
    ck_assert_uint_eq(m.copied_to_host, 400 + 40 + 16 + 8 * 3);
    ck_assert_uint_eq(m.copied_from_host, 0);
    ck_assert_uint_eq(m.host_pointer_launches, 0);
}
END_TEST

START_TEST(copies_from_the_host_are_counted_wherever_they_go)
{
    memset(host, 7, sizeof host); // data: a copy of it carries something
    gpu_ledger_begin();
    __wrap_cudaMemcpy(C + 100, host, 12, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpy(C - 4, host, 8, cudaMemcpyHostToDevice); // overlaps C's first word
    __wrap_cudaMemcpy(C + 8, host, 20, cudaMemcpyDefault);      // from the host, by where it leads
    // From device memory: what kernels made, computed elsewhere (a padded
    // or scratch buffer) and moved into C.  Not counted.
    __wrap_cudaMemcpy(C, device, 16, cudaMemcpyDeviceToDevice);
    __wrap_cudaMemcpy(C + 16, device, 16, cudaMemcpyDefault);
    __wrap_cudaMemcpy2D(C, 64, device, 64, 8, 3, cudaMemcpyDeviceToDevice);
    __wrap_cudaMemcpyFromSymbol(C, "symbol", 16, 0, cudaMemcpyDeviceToDevice);
    __wrap_cudaMemcpy(device, device + 100, 8, cudaMemcpyDeviceToDevice);
    // A kind that does not match the pointers: judged by the pointers
    // (host memory named as device memory, into C and out to the host).
    __wrap_cudaMemcpy(C + 200, host, 24, cudaMemcpyDeviceToDevice);
    __wrap_cudaMemcpy(host, device, 100, cudaMemcpyDeviceToDevice);
    // Into device memory other than C, and into a symbol: a product made on
    // the host may reach C through them (a kernel copies it on).
    __wrap_cudaMemcpy(device, host, 1000, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpyToSymbol("symbol", host, 36, 0, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpyToSymbol("symbol", device, 36, 0, cudaMemcpyDeviceToDevice); // device to device: not counted
    __wrap_cudaMemcpy(host, host + 8, 40, cudaMemcpyHostToHost);                 // host to host: neither
    matmul_ledger m = gpu_ledger_end();
    ck_assert_uint_eq(m.copied_from_host, 12 + 8 + 20 + 24 + 1000 + 36);
    ck_assert_uint_eq(m.copied_to_host, 100);
}
END_TEST

// Zeros clear a buffer and carry nothing: a copy of them is not counted,
// one with a single byte set is, and so is a 2-D copy with one row of data.
START_TEST(copies_of_zeros_from_the_host_are_not_counted)
{
    memset(host, 0, sizeof host);
    gpu_ledger_begin();
    __wrap_cudaMemcpy(device, host, 1000, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpyToSymbol("symbol", host, 64, 0, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpy2D(device, 64, host, 64, 8, 3, cudaMemcpyHostToDevice);
    ck_assert_uint_eq(gpu_ledger_end().copied_from_host, 0);
    host[999] = 1;
    host[2048 + 2 * 64 + 7] = 1; // the last byte of the 2-D copy's last row
    host[2048 + 64 + 8] = 1;     // in a gap between its rows: not copied
    gpu_ledger_begin();
    __wrap_cudaMemcpy(device, host, 1000, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpy(device, host, 999, cudaMemcpyHostToDevice); // stops short of the set byte
    __wrap_cudaMemcpy2D(device, 64, host + 2048, 64, 8, 3, cudaMemcpyHostToDevice);
    __wrap_cudaMemcpy2D(device, 64, host + 2048, 64, 8, 2, cudaMemcpyHostToDevice); // rows of zeros, a set gap
    ck_assert_uint_eq(gpu_ledger_end().copied_from_host, 1000 + 8 * 3);
}
END_TEST

START_TEST(launches_count_once_host_memory_is_in_reach)
{
    void *args[1] = {nullptr};
    void *p;
    gpu_ledger_begin();
    __wrap_cudaLaunchKernel("kernel", dim3(1), dim3(32), args, 0, 0);
    malloc_host_fails = true;
    __wrap_cudaMallocHost(&p, 64); // failed: nothing in reach yet
    __wrap_cudaLaunchKernel("kernel", dim3(1), dim3(32), args, 0, 0);
    ck_assert_uint_eq(gpu_ledger_end().host_pointer_launches, 0);
    malloc_host_fails = false;
    gpu_ledger_begin();
    __wrap_cudaMallocHost(&p, 64);
    __wrap_cudaLaunchKernel("kernel", dim3(1), dim3(32), args, 0, 0);
    __wrap_cudaLaunchKernel("kernel", dim3(1), dim3(32), args, 0, 0);
    ck_assert_uint_eq(gpu_ledger_end().host_pointer_launches, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_ledger");
    TCase *t = tcase_create("counts");
    tcase_add_test(t, copies_outside_matmul_are_not_counted);
    tcase_add_test(t, copies_to_the_host_are_counted_by_kind_and_by_pointer);
    tcase_add_test(t, copies_from_the_host_are_counted_wherever_they_go);
    tcase_add_test(t, copies_of_zeros_from_the_host_are_not_counted);
    tcase_add_test(t, launches_count_once_host_memory_is_in_reach);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
