// time_lab: one lab's kernel at several sizes, for the timing report.
//
//   time_lab STAGE N [N ...]     one TSV line per size on stdout:
//   stage  n  median_ms  min_ms  max_ms  cv  reps  gflops  check
//
// Each size is validated against the CPU reference (sampled rows for large
// n) before it is timed; a wrong result is reported, not timed. With
// TIME_LAB_WRONG_TOO=1 a wrong result is timed too, its check column still
// "wrong": for an ablation, a kernel that leaves out part of the work on
// purpose to show what that part costs (common/report/tune_shapes.sh).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "device_product.h"
#include "harness.h"
#include "lab.h"
#include "timing.h"

static bool validate(const char *stage, const float *A, const float *B, const float *C, int n)
{
    std::vector<float> ref(n);
    int step = n <= 512 ? 1 : n / 32;
    for (int r = 0; r < n; r += step) {
        lab_comparison cmp;
        if (!lab_check_rows(A, B, C, ref.data(), lab_stage_precision(stage), n, r, r + 1, NULL, 0, &cmp))
            return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: time_lab STAGE N [N ...]\n");
        return 2;
    }
    const char *wrong_env = getenv("TIME_LAB_WRONG_TOO");
    const bool wrong_too = wrong_env && strcmp(wrong_env, "1") == 0;
    for (int a = 2; a < argc; a++) {
        int n;
        char err[200];
        if (!lab_parse_size(argv[a], &n, err, sizeof err)) {
            fprintf(stderr, "time_lab: %s\n", err);
            return 2;
        }
        size_t count = (size_t)n * n, bytes = count * sizeof(float);
        std::vector<float> A(count), B(count), C(count);
        lab_make_inputs(A.data(), B.data(), n, 1);
        device_product d(A.data(), B.data(), n);
        CUDA_CHECK(cudaMemset(d.C, 0xFF, bytes));
        matmul(d.A, d.B, d.C, n);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            // A stage that cannot run this size (one block holds at most
            // 32x32 threads in 02 and 03) gets a line saying so.
            printf("%s\t%d\tNA\tNA\tNA\tNA\t0\tNA\t%s\n", argv[1], n, cudaGetErrorName(e));
            fflush(stdout);
            // A refused launch leaves the context usable; a fault does not.
            if (e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue)
                continue;
            return 1;
        }
        CUDA_CHECK(cudaMemcpy(C.data(), d.C, bytes, cudaMemcpyDeviceToHost));
        const bool right = validate(argv[1], A.data(), B.data(), C.data(), n);
        if (!right && !wrong_too) {
            printf("%s\t%d\tNA\tNA\tNA\tNA\t0\tNA\twrong\n", argv[1], n);
            continue;
        }
        timing t = time_product([&] { matmul(d.A, d.B, d.C, n); });
        printf("%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%.1f\t%s\n", argv[1], n, t.median_ms, t.min_ms, t.max_ms, t.cv,
               t.reps, lab_gflops(n, t.median_ms), right ? "ok" : "wrong");
        fflush(stdout);
    }
    return 0;
}
