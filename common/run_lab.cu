// run_lab: builds with one lab's matmul.cu, checks it against the CPU
// reference, then times it.
//
//   make -C labs/01-naive run N=1000 [SEED=1] [REPS=...]
//   build/<backend>/labs/01-naive/run_lab N [SEED] [REPS]
//
// Validate first, then time: a fast wrong kernel is not a result.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "device_product.h"
#include "harness.h"
#include "lab.h"
#include "nan_patterns.h"
#include "timing.h"

#ifndef LAB_BUILT_WITH
#define LAB_BUILT_WITH "" /* the build's LAB_DEFINES (common/build.mk) */
#endif

// ---------------------------------------------------------------- set-up

static const char *backend_name(char *buf, size_t len)
{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(buf, len, "%s", prop.name);
    return buf;
}

static bool on_simulator()
{
#ifdef LAB_SIMULATOR
    return true;
#else
    return false;
#endif
}

// A check build reports counts, not times: its hooks slow every access.
static bool checking()
{
#ifdef LAB_SIMULATOR
    return sim_check_active();
#else
    return false;
#endif
}

// Rows the check compares: all of them up to 1024, else an even sample
// (the O(n^3) reference would take minutes) that always includes the edges.
static std::vector<int> rows_to_check(int n)
{
    std::vector<int> rows;
    if (n <= 1024) {
        for (int i = 0; i < n; i++)
            rows.push_back(i);
        return rows;
    }
    for (int s = 0; s < 64; s++)
        rows.push_back((int)((long)s * (n - 1) / 63));
    return rows;
}

// ---------------------------------------------------------------- check

static bool check_result(const float *A, const float *B, const float *C, int n)
{
    std::vector<int> rows = rows_to_check(n);
    std::vector<float> ref(n);
    long mismatches = 0, not_finite = 0, printed = 0;
    double max_error = 0;
    for (int r : rows) {
        lab_comparison cmp;
        if (!lab_check_rows(A, B, C, ref.data(), lab_stage_precision(LAB_NAME), n, r, r + 1,
                            printed < 10 ? stdout : NULL, (int)(10 - std::min<long>(printed, 10)), &cmp))
            printed += cmp.mismatches;
        mismatches += cmp.mismatches;
        not_finite += cmp.not_finite;
        max_error = std::max(max_error, cmp.max_error);
    }
    long checked = (long)rows.size() * n;
    if (mismatches == 0) {
        const char *checked_rows = rows.size() == (size_t)n ? "every element checked" : "64 rows checked";
        if (lab_stage_precision(LAB_NAME) == LAB_TF32)
            printf("result: PASS  max error %.2e  (tolerance %.1e + %.0e*|expected| + %.2g*sum|a*b|, TF32 inputs; %s)\n",
                   max_error, lab_atol(n), lab_rtol(), lab_tf32_relative(), checked_rows);
        else
            printf("result: PASS  max error %.2e  (tolerance %.1e + %.0e*|expected|; %s)\n", max_error, lab_atol(n),
                   lab_rtol(), checked_rows);
        return true;
    }
    printf("result: FAIL  %ld of %ld checked elements wrong", mismatches, checked);
    if (not_finite)
        printf(", %ld of them NaN or Inf (NaN: never written? C starts as NaN)", not_finite);
    printf("\n");
    return false;
}

// ---------------------------------------------------------------- timing

static void time_kernel(const float *dA, const float *dB, float *dC, int n, unsigned long reps_wanted)
{
    // The validation run was the warm-up.  A GPU run repeats until the
    // spread is small or a second has passed; the simulator is slow, so it
    // times a single run unless told otherwise.
    timing_plan plan;
    plan.warm_up = false;
    plan.flush_l2 = false;
    plan.cap_ms = 1000;
    plan.min_reps = reps_wanted ? reps_wanted : (on_simulator() ? 1 : 5);
    plan.max_reps = reps_wanted ? reps_wanted : (on_simulator() ? 1 : 200);
    timing t = time_product([&] { matmul(dA, dB, dC, n); }, plan);
    if (on_simulator()) {
        printf("time: %.1f ms on the CPU simulator (not a GPU time: compare kernels with the simulator's "
               "counts, and time them on a GPU)\n", t.median_ms);
    } else {
        printf("time: %.4f ms median of %d runs (spread %.1f%%), %.1f GFLOP/s\n", t.median_ms, t.reps,
               t.reps > 1 ? 100.0 * (t.max_ms - t.min_ms) / t.median_ms : 0.0, lab_gflops(n, t.median_ms));
    }
}

// ---------------------------------------------------------------- main

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s N [SEED] [REPS]\n", argv[0]);
        return 2;
    }
    int n;
    char err[200];
    if (!lab_parse_size(argv[1], &n, err, sizeof err)) {
        fprintf(stderr, "run_lab: %s\n", err);
        return 2;
    }
    unsigned long seed = 1, reps = 0;
    if (argc > 2 && !lab_parse_uint(argv[2], &seed)) {
        fprintf(stderr, "run_lab: SEED=%s is not a whole number\n", argv[2]);
        return 2;
    }
    if (argc > 3 && (!lab_parse_uint(argv[3], &reps) || reps == 0)) {
        fprintf(stderr, "run_lab: REPS=%s is not a whole number >= 1\n", argv[3]);
        return 2;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    size_t free_bytes, total_bytes;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (3 * bytes > free_bytes) {
        fprintf(stderr, "run_lab: N=%d needs %.1f GiB for A, B and C; only %.1f GiB of device memory is free\n",
                n, 3.0 * bytes / (1 << 30), (double)free_bytes / (1 << 30));
        return 2;
    }
    std::vector<float> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n);
    lab_make_inputs(A.data(), B.data(), n, seed);

    char name[256];
    printf("lab %s, n=%d, seed %lu, on %s%s%s\n", LAB_NAME, n, seed, backend_name(name, sizeof name),
           *LAB_BUILT_WITH ? ", built with " : "", LAB_BUILT_WITH);
    device_product d(A.data(), B.data(), n);
    // NaN in C on every backend, so an element never written shows up.
    CUDA_CHECK(cudaMemset(d.C, NAN_UNWRITTEN_C_BYTE, bytes));

    matmul(d.A, d.B, d.C, n);
    CUDA_CHECK(cudaGetLastError());       // the launch itself (configuration)
    CUDA_CHECK(cudaDeviceSynchronize());  // the kernel's run (faults)
    CUDA_CHECK(cudaMemcpy(C.data(), d.C, bytes, cudaMemcpyDeviceToHost));

    bool pass = check_result(A.data(), B.data(), C.data(), n);
    if (pass && !checking())
        time_kernel(d.A, d.B, d.C, n, reps);
    return pass ? 0 : 1;
}
