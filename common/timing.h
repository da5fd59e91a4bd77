// Timing a product the way every figure in the kit is timed: validate first
// (elsewhere), warm up, CUDA events around the product alone, and repeat
// until the spread is small or a time cap is reached.  The timing report also
// flushes the L2 cache before each repetition, so no run starts with its
// inputs cached.  run_lab and the report's programs share this.
#ifndef LAB_TIMING_H
#define LAB_TIMING_H

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "cuda_check.h"

struct timing {
    double median_ms, min_ms, max_ms, cv;
    int reps;
};

struct timing_plan {
    bool warm_up = true;         // one untimed run first (first-launch costs)
    bool flush_l2 = true;        // a cold L2 before each repetition
    size_t min_reps = 10, max_reps = 200;
    double target_cv = 0.01;     // stop once the spread is this small...
    double cap_ms = 3000;        // ...or this much time has been timed
};

inline timing time_product(const std::function<void()> &product, const timing_plan &plan = timing_plan())
{
    // Larger than any current GPU's L2 (50 MB on an H100).
    static char *flush = nullptr;
    const size_t flush_bytes = 256u << 20;
    if (plan.flush_l2 && !flush)
        CUDA_CHECK(cudaMalloc((void **)&flush, flush_bytes));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    if (plan.warm_up) {
        product();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<double> ms;
    double spent = 0, cv = 1;
    while (ms.size() < plan.max_reps &&
           (ms.size() < plan.min_reps || (cv > plan.target_cv && spent < plan.cap_ms))) {
        if (plan.flush_l2)
            CUDA_CHECK(cudaMemset(flush, (int)ms.size(), flush_bytes));
        CUDA_CHECK(cudaEventRecord(start));
        product();
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventSynchronize(stop));
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
        spent += t;
        double mean = 0, var = 0;
        for (double v : ms)
            mean += v / ms.size();
        for (double v : ms)
            var += (v - mean) * (v - mean) / ms.size();
        cv = ms.size() > 1 ? std::sqrt(var) / mean : 1;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return timing{sorted[sorted.size() / 2], sorted.front(), sorted.back(), cv, (int)ms.size()};
}

#endif
