// What the parts of both test programs (simulator/, check_mode/) use to
// write their tests: a CUDA call asserted to succeed, and a test case added
// to the suite with its timeout.  Include it after <check.h>.
#ifndef SIM_TESTS_SUITE_SUPPORT_H
#define SIM_TESTS_SUITE_SUPPORT_H

#include <check.h>
#include <cuda_runtime.h>

#define CUDA_OK(call)                                                                        \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        ck_assert_msg(e_ == cudaSuccess, "%s returned %s (%d)", #call, cudaGetErrorName(e_), \
                      (int)e_);                                                              \
    } while (0)

static inline TCase *tcase(Suite *s, const char *name, int timeout_s)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, timeout_s);
    suite_add_tcase(s, tc);
    return tc;
}

#endif
