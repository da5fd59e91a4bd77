/* CUDA_CHECK(call): every CUDA runtime call in the kit goes through this.
 * On failure it names the call, where it was made and CUDA's own message,
 * then exits, so an error is reported where it happened instead of
 * surfacing later as wrong numbers. */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t cuda_check_err_ = (call);                                             \
        if (cuda_check_err_ != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", __FILE__, __LINE__,     \
                    #call, cudaGetErrorString(cuda_check_err_),                           \
                    cudaGetErrorName(cuda_check_err_));                                   \
            exit(EXIT_FAILURE);                                                           \
        }                                                                                 \
    } while (0)

#endif
