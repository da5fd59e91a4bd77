/* What the parts of test_simulator share: the headers, the assertions on
 * CUDA calls, host<->device helpers, and the few kernels and checks more
 * than one part uses (defined in helpers.cu).  Each part adds its test
 * cases to the suite through its add_*_tests function; main.cu runs them.
 */
#ifndef SIM_TESTS_SIMULATOR_TESTS_H
#define SIM_TESTS_SIMULATOR_TESTS_H

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include "kernel_resources.h"
#include "launch_limits.h"
#include "nan_patterns.h"
#include "stderr_capture.h"
#include "suite_support.h"

#define CUDA_IS(want, call)                                                              \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        ck_assert_msg(e_ == (want), "%s returned %s (%d), want %s", #call,               \
                      cudaGetErrorName(e_), (int)e_, cudaGetErrorName(want));            \
    } while (0)

template <class T>
static inline T *dev_alloc(size_t count)
{
    void *p = nullptr;
    CUDA_OK(cudaMalloc(&p, count * sizeof(T)));
    ck_assert_ptr_nonnull(p);
    return static_cast<T *>(p);
}

template <class T>
static inline std::vector<T> to_host(const T *d, size_t count)
{
    std::vector<T> h(count);
    CUDA_OK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <class T>
static inline void to_device(T *d, const std::vector<T> &h)
{
    CUDA_OK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

static inline bool contains(const std::string &text, const char *what) { return text.find(what) != std::string::npos; }

#define ASSERT_CONTAINS(text, what)                                                       \
    ck_assert_msg(contains((text), (what)), "expected \"%s\" in the report; it said:\n%s", \
                  (what), (text).c_str())

static inline long os_thread_id() { return (long)syscall(SYS_gettid); }

// A kernel (helpers.cu) that sets *flag to 1, and the host's read of it.
void set_flag(int *flag);
int read_flag(const int *flag);

// A kernel (barriers_and_warps.cu): each block reverses its blockDim.x
// elements through shared memory, between two barriers.
void reverse_in_block(const int *in, int *out);

// After a kernel fault: the error is sticky and no later work runs.
void expect_sticky(cudaError_t e, float *some_device_array);

void add_launch_tests(Suite *s);
void add_device_function_tests(Suite *s);
void add_barrier_and_warp_tests(Suite *s);
void add_memory_tests(Suite *s);
void add_fault_tests(Suite *s);
void add_tensor_core_tests(Suite *s);

#endif
