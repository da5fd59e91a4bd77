// The device side of one product: A and B uploaded from the host, and room
// for C. Every program that runs matmul on its own inputs starts here
// (run_lab, the timing report, the simulator's benchmark, stage 08's tuner).
#ifndef LAB_DEVICE_PRODUCT_H
#define LAB_DEVICE_PRODUCT_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

struct device_product {
    float *A = nullptr, *B = nullptr, *C = nullptr;
    size_t bytes;

    device_product(const float *host_A, const float *host_B, int n) : bytes((size_t)n * n * sizeof(float))
    {
        CUDA_CHECK(cudaMalloc((void **)&A, bytes));
        CUDA_CHECK(cudaMalloc((void **)&B, bytes));
        CUDA_CHECK(cudaMalloc((void **)&C, bytes));
#ifdef LAB_SIMULATOR
        // The simulator's messages then say C[3][17], not a byte offset.
        sim_name_allocation(A, "A", n);
        sim_name_allocation(B, "B", n);
        sim_name_allocation(C, "C", n);
#endif
        CUDA_CHECK(cudaMemcpy(A, host_A, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(B, host_B, bytes, cudaMemcpyHostToDevice));
    }
    ~device_product()
    {
        CUDA_CHECK(cudaFree(A));
        CUDA_CHECK(cudaFree(B));
        CUDA_CHECK(cudaFree(C));
    }
    device_product(const device_product &) = delete;
    device_product &operator=(const device_product &) = delete;
};

#endif
