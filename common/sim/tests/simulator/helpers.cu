/* test_simulator, part: the kernels and checks more than one part uses. */
#include "simulator_tests.h"

__global__ void set_flag(int *flag) { *flag = 1; }

int read_flag(const int *flag) { return to_host(flag, 1)[0]; }

// Written by kernels straight into host memory: the simulator shares the
// address space, so this shows whether a kernel ran even when every runtime
// call returns a sticky error.  (Not valid CUDA; a probe for these tests.)
static volatile int host_probe;

__global__ void set_host_probe() { host_probe = 1; }

void expect_sticky(cudaError_t e, float *some_device_array)
{
    CUDA_IS(e, cudaDeviceSynchronize());
    CUDA_IS(e, cudaDeviceSynchronize());
    CUDA_IS(e, cudaPeekAtLastError());
    CUDA_IS(e, cudaGetLastError());
    CUDA_IS(e, cudaGetLastError());  // not cleared
    float h[4] = {1, 2, 3, 4};
    CUDA_IS(e, cudaMemcpy(h, some_device_array, sizeof h, cudaMemcpyDeviceToHost));
    ck_assert_float_eq(h[0], 1.0f);
    CUDA_IS(e, cudaMemcpy(some_device_array, h, sizeof h, cudaMemcpyHostToDevice));
    CUDA_IS(e, cudaMemset(some_device_array, 0, sizeof h));
    void *p = nullptr;
    CUDA_IS(e, cudaMalloc(&p, 64));
    host_probe = 0;
    set_host_probe<<<1, 1>>>();
    ck_assert_msg(host_probe == 0, "a kernel ran after a sticky error");
    CUDA_IS(e, cudaGetLastError());
}
