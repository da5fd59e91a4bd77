// lab_exec: the only grading program that contains a student's code.
//
//   lab_exec N SEED [SEED ...]     (results go to file descriptor 3)
//
// For each seed it builds the same inputs the grader builds, runs the
// student's matmul on them and writes the raw result to fd 3.  It decides
// nothing: the grader, in another process that never loads student code,
// compares the numbers.  So printing "PASS", exiting early or crashing can
// only ever lose points.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "harness.h"
#include "lab.h"
#include "lab_exec_protocol.h"
#include "nan_patterns.h"
#ifndef LAB_SIMULATOR
#include "gpu_ledger.h"
#endif

static void write_all(const void *data, size_t bytes)
{
    const char *p = static_cast<const char *>(data);
    while (bytes > 0) {
        ssize_t w = write(LAB_EXEC_RESULT_FD, p, bytes);
        if (w <= 0) {
            perror("lab_exec: writing results");
            exit(3);
        }
        p += w;
        bytes -= (size_t)w;
    }
}

// Reports a CUDA error the way the grader relays it, and stops: after a
// kernel fault every later CUDA call fails anyway.
static void fail(const lab_exec_header &h, cudaError_t e, const char *stage)
{
    lab_exec_header out = h;
    out.status = (int32_t)e;
    snprintf(out.detail, sizeof out.detail, "%s: %s (%s)", stage, cudaGetErrorString(e), cudaGetErrorName(e));
    write_all(&out, sizeof out);
    exit(0);
}

// Where C came from.  On the simulator the runtime keeps a ledger of what
// was copied to the host and from it, and of kernels given host memory;
// every result's header carries what moved while matmul ran, and a check
// run (SIM_CHECK_OUT set) also adds it to the counts file, beside the
// kernels' loads and stores.  A matmul that copies more than a few numbers
// of its own either way, or hands a kernel host memory, did not compute C in
// its own kernel: no test of any stage counts its result.  A GPU build keeps the
// same ledger from the runtime calls it sees (gpu_ledger.cpp), which are
// fewer than the simulator sees; the grader then also asks a check run of
// the same matmul.cu, which always runs on the simulator.
struct ledger_reading {
    matmul_ledger totals;
    int32_t kept; // lab_exec_header.ledger
};

static ledger_reading read_ledger(bool starting)
{
    ledger_reading l = {{0, 0, 0}, LEDGER_NONE};
#ifdef LAB_SIMULATOR
    (void)starting;
    sim_ledger s = sim_ledger_of();
    l.totals = {s.copied_to_host, s.copied_from_host, s.host_pointer_launches};
    l.kept = LEDGER_SIMULATOR;
#else
    if (starting)
        gpu_ledger_begin();
    else
        l.totals = gpu_ledger_end();
    l.kept = LEDGER_GPU_CALLS;
#endif
    return l;
}

static matmul_ledger moved_between(const ledger_reading &before, const ledger_reading &after)
{
    return {after.totals.copied_to_host - before.totals.copied_to_host,
            after.totals.copied_from_host - before.totals.copied_from_host,
            after.totals.host_pointer_launches - before.totals.host_pointer_launches};
}

static void report_ledger(const matmul_ledger &moved)
{
#ifdef LAB_SIMULATOR
    const char *path = getenv("SIM_CHECK_OUT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "matmul copied_to_host=%llu copied_from_host=%llu host_pointer_launches=%llu\n",
            (unsigned long long)moved.copied_to_host, (unsigned long long)moved.copied_from_host,
            (unsigned long long)moved.host_pointer_launches);
    fclose(f);
#else
    (void)moved;
#endif
}

int main(int argc, char **argv)
{
    int n;
    char err[200];
    if (argc < 3 || !lab_parse_size(argv[1], &n, err, sizeof err)) {
        fprintf(stderr, "usage: lab_exec N SEED [SEED ...]\n");
        return 2;
    }
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    // The seeds are read, then wiped from the arguments (and so from
    // /proc/self/cmdline): a matmul that read them could rebuild the inputs
    // on the host (harness.h's generator is in this program) and never
    // copy anything off the device.
    std::vector<unsigned long> seeds;
    for (int s = 2; s < argc; s++) {
        unsigned long seed;
        if (!lab_parse_uint(argv[s], &seed)) {
            fprintf(stderr, "lab_exec: bad seed %s\n", argv[s]);
            return 2;
        }
        seeds.push_back(seed);
        memset(argv[s], 0, strlen(argv[s]));
    }
    std::vector<float> A(count), B(count), C(count), A_after(count), B_after(count);
    float *dA, *dB, *dC;
    for (unsigned long seed : seeds) {
        lab_exec_header h;
        memset(&h, 0, sizeof h);
        memcpy(h.magic, LAB_EXEC_MAGIC, sizeof h.magic);
        h.n = n;
        h.seed = seed;
        lab_make_inputs(A.data(), B.data(), n, seed);
        cudaError_t e;
        if ((e = cudaMalloc((void **)&dA, bytes)) || (e = cudaMalloc((void **)&dB, bytes)) ||
            (e = cudaMalloc((void **)&dC, bytes)))
            fail(h, e, "cudaMalloc");
#ifdef LAB_SIMULATOR
        // The simulator's messages then say C[3][17], not a byte offset.
        sim_name_allocation(dA, "A", n);
        sim_name_allocation(dB, "B", n);
        sim_name_allocation(dC, "C", n);
#endif
        if ((e = cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice)) ||
            (e = cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice)))
            fail(h, e, "copying the inputs");
        // C starts as NaN on every backend (the simulator's new memory
        // already is): an element the kernel never writes cannot pass.
        if ((e = cudaMemset(dC, NAN_UNWRITTEN_C_BYTE, bytes)))
            fail(h, e, "clearing C");
        // The host keeps no copy of A and B while matmul runs: the device's
        // are the only ones (the grader has its own, in another process).
        std::fill(A.begin(), A.end(), 0.0f);
        std::fill(B.begin(), B.end(), 0.0f);
        ledger_reading before = read_ledger(true);
        matmul(dA, dB, dC, n);
        // The simulator runs a kernel during its launch, so a fault can
        // surface here; name the step by the kind of error, as a GPU would.
        if ((e = cudaGetLastError()))
            fail(h, e, e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ? "running the kernel"
                                                                                   : "launching the kernel");
        if ((e = cudaDeviceSynchronize()))
            fail(h, e, "running the kernel");
        ledger_reading after = read_ledger(false);
        h.ledger = after.kept;
        h.moved = moved_between(before, after);
        report_ledger(h.moved);
        if ((e = cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost)))
            fail(h, e, "copying the result back");
        if ((e = cudaMemcpy(A_after.data(), dA, bytes, cudaMemcpyDeviceToHost)) ||
            (e = cudaMemcpy(B_after.data(), dB, bytes, cudaMemcpyDeviceToHost)))
            fail(h, e, "copying the inputs back");
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
        write_all(&h, sizeof h);
        write_all(C.data(), bytes);
        write_all(A_after.data(), bytes);
        write_all(B_after.data(), bytes);
    }
    return 0;
}
