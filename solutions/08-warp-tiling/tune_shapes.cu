// tune_shapes: the warp-tiling kernel of this folder at several tile shapes,
// beside cuBLAS FP32, timed as the report times (L2 flushed, CV-bounded
// median). It is how the shapes matmul() uses were chosen; re-run it on
// another GPU to choose again.
//
//   make -C solutions/08-warp-tiling tune        # GPU only (tune-build compiles it anywhere)
//
// One TSV line per shape and size: shape, n, median_ms, cv, GFLOP/s, % of
// cuBLAS FP32, max |difference| from cuBLAS.
//
// --once launches each shape once and times nothing: what a profiler needs
// (ncu ... tune_shapes --once 4096 profiles one launch of every shape).
// --shape TEXT (again for more) times only the shapes whose name holds it.
#include <cublas_v2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "device_product.h"
#include "harness.h"
#include "report/cublas_product.h"
#include "timing.h"

#define WARPTILE_NO_MATMUL
#include "matmul.cu"

struct shape {
    std::string name;
    void (*launch)(const float *, const float *, float *, int);
};

#define SHAPE(BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES)                                                  \
    shape{#BM "x" #BN "x" #BK " warp " #WM "x" #WN " x" #WNITER " thread " #TM "x" #TN " stages " #STAGES,  \
          launch_warptile<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES>}

int main(int argc, char **argv)
{
    const std::vector<shape> shapes = {
        SHAPE(64, 64, 8, 32, 32, 2, 4, 4, 3),      SHAPE(64, 64, 8, 32, 32, 2, 4, 4, 4),
        SHAPE(64, 64, 16, 32, 32, 2, 4, 4, 2),     SHAPE(64, 64, 16, 32, 32, 2, 4, 4, 3),
        SHAPE(64, 64, 16, 32, 32, 2, 4, 4, 4),     SHAPE(64, 64, 16, 32, 32, 2, 4, 4, 5),
        SHAPE(128, 64, 8, 64, 32, 2, 8, 4, 3),     SHAPE(128, 64, 16, 64, 32, 2, 8, 4, 2),
        SHAPE(128, 64, 16, 64, 32, 2, 8, 4, 3),    SHAPE(128, 64, 16, 64, 32, 2, 8, 4, 4),
        SHAPE(128, 64, 16, 32, 64, 2, 4, 8, 2),    SHAPE(128, 64, 16, 32, 64, 2, 4, 8, 4),
        SHAPE(64, 128, 16, 32, 64, 2, 4, 8, 2),    SHAPE(64, 128, 16, 32, 64, 2, 4, 8, 3),
        SHAPE(64, 128, 16, 32, 64, 2, 4, 8, 4),    SHAPE(128, 128, 8, 64, 64, 4, 8, 4, 4),
        SHAPE(128, 128, 8, 64, 64, 4, 8, 4, 5),    SHAPE(128, 128, 16, 64, 32, 2, 8, 4, 2),
        SHAPE(128, 128, 16, 64, 32, 2, 8, 4, 4),   SHAPE(128, 128, 16, 32, 64, 2, 4, 8, 2),
        SHAPE(128, 128, 16, 64, 64, 4, 8, 4, 2),   SHAPE(128, 128, 16, 64, 64, 2, 8, 8, 2),
        // Over 48 KiB of shared memory from here: allowed by
        // cudaFuncSetAttribute in launch_warptile_kernel.
        SHAPE(128, 128, 16, 64, 64, 4, 8, 4, 3),   SHAPE(128, 128, 16, 64, 64, 4, 8, 4, 4),
        SHAPE(128, 128, 16, 64, 64, 2, 8, 8, 3),
        // Eight warps of 64 x 64: the block tile of cuBLAS's FP32 kernel at
        // n = 4096 (ncu names it), and the same turned on its side.
        SHAPE(128, 256, 8, 64, 64, 4, 8, 4, 3),    SHAPE(128, 256, 8, 64, 64, 4, 8, 4, 4),
        SHAPE(128, 256, 8, 64, 64, 4, 8, 4, 5),    SHAPE(128, 256, 16, 64, 64, 4, 8, 4, 2),
        SHAPE(128, 256, 16, 64, 64, 4, 8, 4, 3),   SHAPE(128, 256, 16, 64, 64, 2, 8, 8, 2),
        SHAPE(256, 128, 8, 64, 64, 4, 8, 4, 3),    SHAPE(256, 128, 8, 64, 64, 4, 8, 4, 4),
        SHAPE(256, 128, 16, 64, 64, 4, 8, 4, 2),   SHAPE(256, 128, 16, 64, 64, 2, 8, 8, 2),
        SHAPE(256, 128, 16, 64, 64, 4, 8, 4, 4),
    };
    std::vector<int> sizes;
    std::vector<std::string> only;
    bool once = false;
    for (int a = 1; a < argc; a++) {
        if (std::string(argv[a]) == "--once")
            once = true;
        else if (std::string(argv[a]) == "--shape" && a + 1 < argc)
            only.push_back(argv[++a]);
        else
            sizes.push_back(atoi(argv[a]));
    }
    auto wanted = [&](const shape &s) {
        if (only.empty())
            return true;
        for (const std::string &text : only)
            if (s.name.find(text) != std::string::npos)
                return true;
        return false;
    };
    if (sizes.empty())
        sizes = {1024, 2048, 4096};

    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 1;
    cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
    printf("shape\tn\tmedian_ms\tcv\tgflops\tpct_cublas\tmax_diff\n");
    for (int n : sizes) {
        size_t count = (size_t)n * n, bytes = count * sizeof(float);
        std::vector<float> A(count), B(count), ref(count), C(count);
        lab_make_inputs(A.data(), B.data(), n, 1);
        device_product d(A.data(), B.data(), n);
        auto cublas = [&] { cublas_product(h, d.A, d.B, d.C, n); };
        cublas();
        CUDA_CHECK(cudaMemcpy(ref.data(), d.C, bytes, cudaMemcpyDeviceToHost));
        timing base{};
        if (once)
            printf("cublas-fp32\t%d\t-\t-\t-\t-\t0\n", n);
        else {
            base = time_product(cublas);
            printf("cublas-fp32\t%d\t%.4f\t%.4f\t%.1f\t100.0\t0\n", n, base.median_ms, base.cv,
                   lab_gflops(n, base.median_ms));
        }
        fflush(stdout);
        for (const shape &s : shapes) {
            if (!wanted(s))
                continue;
            CUDA_CHECK(cudaMemset(d.C, 0xFF, bytes));
            s.launch(d.A, d.B, d.C, n);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpy(C.data(), d.C, bytes, cudaMemcpyDeviceToHost));
            double diff = 0;
            for (size_t i = 0; i < count; i++)
                diff = fmax(diff, isnan(C[i]) ? INFINITY : fabs(C[i] - ref[i]));
            if (once) {
                printf("%s\t%d\t-\t-\t-\t-\t%.2g\n", s.name.c_str(), n, diff);
                continue;
            }
            timing t = time_product([&] { s.launch(d.A, d.B, d.C, n); });
            printf("%s\t%d\t%.4f\t%.4f\t%.1f\t%.1f\t%.2g\n", s.name.c_str(), n, t.median_ms, t.cv,
                   lab_gflops(n, t.median_ms), 100.0 * base.median_ms / t.median_ms, diff);
            fflush(stdout);
        }
    }
    cublasDestroy(h);
    return 0;
}
