// bandwidth: what the roofline needs that nvidia-smi does not say: the
// memory bandwidth, measured the simplest honest way (large device-to-device
// copies, each byte read once and written once, timed with events), and the
// number of SMs.  Prints "bandwidth_gbs<TAB>value" and "sm_count<TAB>value".
#include <stdio.h>

#include "timing.h"

int main()
{
    const size_t bytes = 1u << 30;
    char *a, *b;
    CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    timing t = time_product([&] { CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    printf("bandwidth_gbs\t%.1f\n", 2.0 * bytes / (t.median_ms * 1e6));
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("sm_count\t%d\n", sms);
    return 0;
}
