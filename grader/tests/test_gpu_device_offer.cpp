// What a GPU build of lab_exec reports of a smaller GPU
// (grader/gpu_device_offer.cpp), without a GPU: its wrappers are called
// directly, and CUDA's functions behind them are stand-ins below that
// answer as an H200 does.  Each test runs in a process of its own (Check's
// fork mode), so each sets LAB_SHARED_PER_BLOCK_OPTIN before the wrappers
// first read it.
#include <check.h>
#include <climits>
#include <cstdlib>

#include <cuda_runtime_api.h>

static const int h200_optin = 232448;
static size_t static_shared;   // the kernel's __shared__ arrays, as cudaFuncGetAttributes says
static int value_passed_on;    // what reached CUDA's cudaFuncSetAttribute

extern "C" cudaError_t __real_cudaGetDeviceProperties(cudaDeviceProp *prop, int)
{
    prop->sharedMemPerBlock = 49152;
    prop->sharedMemPerBlockOptin = h200_optin;
    return cudaSuccess;
}
#if CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
// CUDA 12's name for it, which its headers make every call use.
extern "C" cudaError_t __real_cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device)
{
    return __real_cudaGetDeviceProperties(prop, device);
}
extern "C" cudaError_t __wrap_cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device);
#endif
extern "C" cudaError_t __real_cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int)
{
    *value = attr == cudaDevAttrMaxSharedMemoryPerBlockOptin ? h200_optin : 132;
    return cudaSuccess;
}
extern "C" cudaError_t __real_cudaFuncSetAttribute(const void *, cudaFuncAttribute, int value)
{
    value_passed_on = value;
    return (size_t)value + static_shared > (size_t)h200_optin ? cudaErrorInvalidValue : cudaSuccess;
}
extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *)
{
    a->sharedSizeBytes = static_shared;
    return cudaSuccess;
}

extern "C" cudaError_t __wrap_cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
extern "C" cudaError_t __wrap_cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
extern "C" cudaError_t __wrap_cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);

static const int kernel = 0;  // any address stands for the kernel

static int optin_by_properties()
{
    cudaDeviceProp prop = {};
    ck_assert_int_eq(__wrap_cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    ck_assert_int_eq((int)prop.sharedMemPerBlock, 49152);
#if CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
    cudaDeviceProp v2 = {};
    ck_assert_int_eq(__wrap_cudaGetDeviceProperties_v2(&v2, 0), cudaSuccess);
    ck_assert_int_eq((int)v2.sharedMemPerBlockOptin, (int)prop.sharedMemPerBlockOptin);
#endif
    return (int)prop.sharedMemPerBlockOptin;
}

static int optin_by_attribute()
{
    int value = 0, sms = 0;
    ck_assert_int_eq(__wrap_cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    ck_assert_int_eq(__wrap_cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    ck_assert_int_eq(sms, 132);  // other attributes as CUDA says
    return value;
}

START_TEST(unset_is_the_device_as_it_is)
{
    unsetenv("LAB_SHARED_PER_BLOCK_OPTIN");
    ck_assert_int_eq(optin_by_properties(), h200_optin);
    ck_assert_int_eq(optin_by_attribute(), h200_optin);
    ck_assert_int_eq(__wrap_cudaFuncSetAttribute(&kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000),
                     cudaSuccess);
    ck_assert_int_eq(value_passed_on, 100000);
}
END_TEST

START_TEST(a_48_kib_device)
{
    setenv("LAB_SHARED_PER_BLOCK_OPTIN", "49152", 1);
    ck_assert_int_eq(optin_by_properties(), 49152);
    ck_assert_int_eq(optin_by_attribute(), 49152);
    // Over the offer: refused by CUDA itself, given a value no device takes.
    ck_assert_int_eq(__wrap_cudaFuncSetAttribute(&kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49664),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(value_passed_on, INT_MAX);
    // Within it: passed on as asked.
    ck_assert_int_eq(__wrap_cudaFuncSetAttribute(&kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152),
                     cudaSuccess);
    ck_assert_int_eq(value_passed_on, 49152);
    // The kernel's static shared memory counts against the offer too.
    static_shared = 1024;
    ck_assert_int_eq(__wrap_cudaFuncSetAttribute(&kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152),
                     cudaErrorInvalidValue);
    // Other attributes are CUDA's business.
    ck_assert_int_eq(__wrap_cudaFuncSetAttribute(&kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 50),
                     cudaSuccess);
    ck_assert_int_eq(value_passed_on, 50);
}
END_TEST

START_TEST(less_than_48_kib_is_48_kib)
{
    setenv("LAB_SHARED_PER_BLOCK_OPTIN", "1000", 1);
    ck_assert_int_eq(optin_by_attribute(), 49152);
}
END_TEST

START_TEST(no_number_is_the_device_as_it_is)
{
    setenv("LAB_SHARED_PER_BLOCK_OPTIN", "many", 1);
    ck_assert_int_eq(optin_by_attribute(), h200_optin);
}
END_TEST

START_TEST(more_than_the_device_is_the_device)
{
    setenv("LAB_SHARED_PER_BLOCK_OPTIN", "1000000", 1);
    ck_assert_int_eq(optin_by_properties(), h200_optin);
    ck_assert_int_eq(optin_by_attribute(), h200_optin);
}
END_TEST

int main()
{
    Suite *s = suite_create("gpu_device_offer");
    TCase *tc = tcase_create("offer");
    tcase_add_test(tc, unset_is_the_device_as_it_is);
    tcase_add_test(tc, a_48_kib_device);
    tcase_add_test(tc, less_than_48_kib_is_48_kib);
    tcase_add_test(tc, no_number_is_the_device_as_it_is);
    tcase_add_test(tc, more_than_the_device_is_the_device);
    suite_add_tcase(s, tc);
    SRunner *runner = srunner_create(s);
    srunner_set_fork_status(runner, CK_FORK);  // each test reads the setting afresh
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
