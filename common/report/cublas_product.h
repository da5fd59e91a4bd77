// C = A B for row-major n x n matrices with cuBLAS SGEMM. cuBLAS is
// column-major, and a row-major matrix read column-major is its transpose:
// C^T = B^T A^T, so the operands go in swapped. The timing report's
// ceiling (time_cublas) and stage 08's tuner both call this.
#ifndef LAB_CUBLAS_PRODUCT_H
#define LAB_CUBLAS_PRODUCT_H

#include <cublas_v2.h>

inline cublasStatus_t cublas_product(cublasHandle_t h, const float *A, const float *B, float *C, int n)
{
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n);
}

#endif
