// Timing a GPU product the way every report line is timed: validate first
// (elsewhere), warm up, flush the L2 cache before each repetition so no run
// starts with its inputs cached, CUDA events around the product alone, and
// repeat until the spread is small or a time cap is reached.
#ifndef REPORT_TIMING_H
#define REPORT_TIMING_H

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "cuda_check.h"

struct timing {
    double median_ms, min_ms, max_ms, cv;
    int reps;
};

inline timing time_product(const std::function<void()> &product)
{
    // Larger than any current GPU's L2 (50 MB on an H100).
    static char *flush = nullptr;
    const size_t flush_bytes = 256u << 20;
    if (!flush)
        CUDA_CHECK(cudaMalloc((void **)&flush, flush_bytes));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    product();  // warm-up: first-launch costs stay out of the numbers
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> ms;
    double spent = 0, cv = 1;
    while (ms.size() < 200 && (ms.size() < 10 || (cv > 0.01 && spent < 3000))) {
        CUDA_CHECK(cudaMemset(flush, (int)ms.size(), flush_bytes));
        CUDA_CHECK(cudaEventRecord(start));
        product();
        CUDA_CHECK(cudaEventRecord(stop));
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
        cv = std::sqrt(var) / mean;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return timing{sorted[sorted.size() / 2], sorted.front(), sorted.back(), cv, (int)ms.size()};
}

#endif
