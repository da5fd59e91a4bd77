// time_cublas: the ceilings the report compares every stage with, cuBLAS
// SGEMM in FP32 and with TF32 tensor cores, timed like the labs.
//
//   time_cublas N [N ...]     TSV lines as time_lab prints, stages "cublas-fp32" and "cublas-tf32"
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "cublas_product.h"
#include "device_product.h"
#include "harness.h"
#include "timing.h"

#define CUBLAS_CHECK(call)                                                                          \
    do {                                                                                            \
        cublasStatus_t s_ = (call);                                                                 \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                          \
            fprintf(stderr, "%s:%d: cuBLAS error %d in %s\n", __FILE__, __LINE__, (int)s_, #call);  \
            exit(EXIT_FAILURE);                                                                     \
        }                                                                                           \
    } while (0)

int main(int argc, char **argv)
{
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    for (int a = 1; a < argc; a++) {
        int n;
        char err[200];
        if (!lab_parse_size(argv[a], &n, err, sizeof err)) {
            fprintf(stderr, "time_cublas: %s\n", err);
            return 2;
        }
        size_t count = (size_t)n * n, bytes = count * sizeof(float);
        std::vector<float> A(count), B(count), C(count), ref(n);
        lab_make_inputs(A.data(), B.data(), n, 1);
        device_product d(A.data(), B.data(), n);
        for (int tf32 = 0; tf32 < 2; tf32++) {
            CUBLAS_CHECK(cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_PEDANTIC_MATH));
            auto product = [&] { CUBLAS_CHECK(cublas_product(h, d.A, d.B, d.C, n)); };
            product();
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaMemcpy(C.data(), d.C, bytes, cudaMemcpyDeviceToHost));
            // TF32 rounds inputs to 10-bit mantissas: check FP32 only.
            const char *check = "ok";
            if (!tf32) {
                lab_reference_rows(A.data(), B.data(), ref.data(), n, n / 2, n / 2 + 1);
                lab_comparison cmp;
                if (!lab_compare_rows(C.data(), ref.data(), n, n / 2, n / 2 + 1, NULL, 0, &cmp))
                    check = "wrong";
            }
            timing t = time_product(product);
            printf("%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%.1f\t%s\n", tf32 ? "cublas-tf32" : "cublas-fp32", n,
                   t.median_ms, t.min_ms, t.max_ms, t.cv, t.reps, lab_gflops(n, t.median_ms), check);
            fflush(stdout);
        }
    }
    CUBLAS_CHECK(cublasDestroy(h));
    return 0;
}
