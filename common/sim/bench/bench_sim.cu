// bench_sim: how fast the CPU simulator runs the two kernels every lesson
// starts from, at N=1000.  A benchmark, not a test: it asserts nothing about
// time, it reports it (and checks the results, so a fast wrong run shows).
//
//   make bench-sim          (runs this with 1 OS thread and with all cores)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "device_product.h"
#include "harness.h"
#include "lab.h"

#define TILE 32

__global__ void naive_16x16(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += A[row * n + k] * B[k * n + col];
        C[row * n + col] = acc;
    }
}

__global__ void tiled_32x32(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        As[ty][tx] = row < n && t * TILE + tx < n ? A[row * n + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = col < n && t * TILE + ty < n ? B[(t * TILE + ty) * n + col] : 0.0f;
        __syncthreads();  // the tiles are complete before anyone reads them
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done reading before the next load
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

// The contract's entry point, unused here but required by lab.h's users.
void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tiled_32x32<<<grid, block>>>(A, B, C, n);
}

static double run(const char *which, const float *A, const float *B, float *C, int n)
{
    double t0 = lab_now_ms();
    if (which[0] == 'n') {
        dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
        naive_16x16<<<grid, block>>>(A, B, C, n);
    } else {
        matmul(A, B, C, n);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    return (lab_now_ms() - t0) / 1e3;
}

// The floor under any simulator that runs one CUDA thread at a time: the
// same 10^9 multiply-adds as a dot-product loop on one core, where each add
// waits for the one before (a thread's sum is a serial chain).
static double serial_floor(const float *A, const float *B, int n)
{
    double t0 = lab_now_ms();
    float total = 0.0f;
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += A[row * n + k] * B[col * n + k];
            total += acc;
        }
    }
    volatile float sink = total;
    (void)sink;
    return (lab_now_ms() - t0) / 1e3;
}

int main(int argc, char **argv)
{
    int n = 1000, reps = argc > 1 ? atoi(argv[1]) : 3;
    size_t bytes = (size_t)n * n * sizeof(float);
    std::vector<float> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n), ref(8 * (size_t)n);
    lab_make_inputs(A.data(), B.data(), n, 1);
    device_product d(A.data(), B.data(), n);
    lab_reference_rows(A.data(), B.data(), ref.data(), n, n - 8, n);
    const char *threads = getenv("SIM_THREADS");
    if (threads && !strcmp(threads, "1"))
        printf("serial floor\tN=%d\tone core, no simulator\t%.3f s\t(the dependent adds of 10^9 multiply-adds)\n", n,
               serial_floor(A.data(), B.data(), n));
    for (const char *which : {"naive 16x16", "tiled 32x32"}) {
        std::vector<double> s;
        for (int r = 0; r < reps; r++)
            s.push_back(run(which, d.A, d.B, d.C, n));
        std::sort(s.begin(), s.end());
        CUDA_CHECK(cudaMemcpy(C.data(), d.C, bytes, cudaMemcpyDeviceToHost));
        lab_comparison cmp;
        bool ok = lab_compare_rows(C.data(), ref.data(), n, n - 8, n, NULL, 0, &cmp);
        printf("%s\tN=%d\tSIM_THREADS=%s\tmedian %.3f s\tbest %.3f s\tof %d\t%s\n", which, n,
               threads ? threads : "all", s[s.size() / 2], s[0], reps, ok ? "correct" : "WRONG RESULT");
        if (!ok)
            return 1;
    }
    return 0;
}
