/* Unit tests for the simulator's check mode (common/sim/check_mode.cpp):
 * the counts and findings it reports for small kernels whose right answers
 * can be worked out by hand.
 *
 * Build and run from the repo root:   make test-sim-unit
 *
 * which does, as for a lab's check build (see common/sim/tests/sim_tests.mk
 * and common/build.mk):
 *
 *   build/sim/common/rewrite_launch common/sim/tests/test_check_mode.cu \
 *       build/sim/tests/test_check_mode.cpp common/sim/tests/test_check_mode.cu
 *   clang++ $(CHECK_CXXFLAGS) -I common/sim/include -I common/sim -I common \
 *       $(pkg-config --cflags check) -c build/sim/tests/test_check_mode.cpp \
 *       -o build/sim/tests/test_check_mode.o
 *   g++ -pthread build/sim/tests/test_check_mode.o build/sim/common/libsim.a \
 *       $(pkg-config --libs check) -o build/sim/tests/test_check_mode
 *   build/sim/tests/test_check_mode
 *
 * CHECK_CXXFLAGS (common/backend.mk) has -DLAB_CHECK_MODE and clang's
 * -fsanitize-coverage=func,trace-loads,trace-stores, so every load and
 * store below calls the checker's hooks and check mode is on from the start.
 *
 * Each test makes one launch with SIM_CHECK_OUT naming a fresh temporary
 * file, then reads back the checker's machine-readable lines:
 *
 *   launch=1 site=test_check_mode.cu:NN ... global_loads=... hazards=...
 *   finding launch=1 kind=... <text>
 *
 * and asserts exact values.  The expected numbers follow the GPU's rules:
 * a request is one access by the 32 lanes of a warp; a shared request
 * takes one wavefront per distinct word in its busiest bank (lanes reading
 * one word share it: a broadcast), and "bank conflicts" are the wavefronts
 * beyond the first; a global request costs one 32-byte sector per distinct
 * sector its lanes touch.
 *
 * Check's fork mode (its default) is needed: each test runs in its own
 * process, so its SIM_CHECK_OUT setting, the checker's launch counter and
 * any sticky error stay inside it.  Do not run with CK_FORK=no.
 */
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

// After the C++ headers: check.h defines a macro `fail` that <ios> would trip on.
#include <check.h>

#include "stderr_capture.h"

// ------------------------------------------------------------------ helpers

#define CUDA_OK(call)                                                                        \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        ck_assert_msg(e_ == cudaSuccess, "%s returned %s (%d)", #call, cudaGetErrorName(e_), \
                      (int)e_);                                                              \
    } while (0)

static float *dev_floats(size_t count, float first = 1.0f)
{
    void *p = nullptr;
    CUDA_OK(cudaMalloc(&p, count * sizeof(float)));
    ck_assert_ptr_nonnull(p);
    std::vector<float> h(count);
    for (size_t i = 0; i < count; i++)
        h[i] = first + (float)(i % 97);
    CUDA_OK(cudaMemcpy(p, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    return static_cast<float *>(p);
}

static std::vector<float> to_host(const float *d, size_t count)
{
    std::vector<float> h(count);
    CUDA_OK(cudaMemcpy(h.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

static bool contains(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

// The file name the checker prints for this file's lines (addr2line gives
// the path the rewriter's #line names; the checker keeps its last part).
static std::string this_file_name()
{
    const char *slash = strrchr(__FILE__, '/');
    return slash ? slash + 1 : __FILE__;
}

// One line of this source file, 1-based ("" if there is none).
static std::string source_line(int number)
{
    std::ifstream in(__FILE__);
    std::string line;
    for (int i = 1; std::getline(in, line); i++)
        if (i == number)
            return line;
    return "";
}

// ------------------------------------------------ the machine-readable report

struct finding_line {
    unsigned long long launch = 0;
    std::string kind;  // the kind= token, e.g. "hazard" or "bank_conflict"
    std::string text;  // everything after the kind= token
    std::string whole;
};

struct check_report {
    std::vector<std::map<std::string, std::string>> launches;  // one key=value map per launch line
    std::vector<finding_line> findings;
    std::string raw;     // the SIM_CHECK_OUT file as written
    std::string human;   // what the checker printed on stderr

    // The value of `key` on the only launch line, as a number.
    unsigned long long value(const char *key) const
    {
        ck_assert_msg(launches.size() == 1, "expected exactly one launch line, found %zu in:\n%s", launches.size(),
                      raw.c_str());
        auto it = launches[0].find(key);
        ck_assert_msg(it != launches[0].end(), "no %s= on the launch line:\n%s", key, raw.c_str());
        const std::string &v = it->second;
        char *end = nullptr;
        unsigned long long n = strtoull(v.c_str(), &end, 10);
        ck_assert_msg(!v.empty() && *end == '\0', "%s=%s is not a whole number", key, v.c_str());
        return n;
    }

    std::string field(const char *key) const
    {
        ck_assert_msg(launches.size() == 1, "expected exactly one launch line in:\n%s", raw.c_str());
        auto it = launches[0].find(key);
        ck_assert_msg(it != launches[0].end(), "no %s= on the launch line:\n%s", key, raw.c_str());
        return it->second;
    }

    // Findings whose text contains every one of `parts`.
    std::vector<const finding_line *> matching(std::initializer_list<const char *> parts) const
    {
        std::vector<const finding_line *> found;
        for (const finding_line &f : findings) {
            bool all = true;
            for (const char *p : parts)
                all = all && contains(f.whole, p);
            if (all)
                found.push_back(&f);
        }
        return found;
    }
};

// Splits "a=1 b=x:2 c=3" into {a:1, b:x:2, c:3}; false if a token has no '='.
static bool parse_pairs(const std::string &line, std::map<std::string, std::string> *out)
{
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
        size_t eq = w.find('=');
        if (eq == std::string::npos || eq == 0)
            return false;
        (*out)[w.substr(0, eq)] = w.substr(eq + 1);
    }
    return true;
}

// "finding launch=N kind=K text..." -> its parts; false if malformed.
static bool parse_finding(const std::string &line, finding_line *f)
{
    const std::string head = "finding launch=";
    if (line.compare(0, head.size(), head) != 0)
        return false;
    char *end = nullptr;
    f->launch = strtoull(line.c_str() + head.size(), &end, 10);
    if (end == line.c_str() + head.size() || strncmp(end, " kind=", 6) != 0)
        return false;
    const char *kind = end + 6;
    const char *space = strchr(kind, ' ');
    f->kind = space ? std::string(kind, space) : std::string(kind);
    f->text = space ? std::string(space + 1) : "";
    f->whole = line;
    return !f->kind.empty();
}

static check_report parse_report(const std::string &raw)
{
    check_report r;
    r.raw = raw;
    std::istringstream lines(raw);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        if (line.compare(0, 7, "launch=") == 0) {
            std::map<std::string, std::string> kv;
            ck_assert_msg(parse_pairs(line, &kv), "malformed launch line: %s", line.c_str());
            r.launches.push_back(kv);
        } else {
            finding_line f;
            ck_assert_msg(parse_finding(line, &f), "malformed line in the check output: %s", line.c_str());
            r.findings.push_back(f);
        }
    }
    return r;
}

// Set up before a test's launch: SIM_CHECK_OUT names a fresh empty file and
// stderr (the human report) goes to another; finish() reads both back.
class checked_run {
public:
    checked_run()
    {
        char name[] = "/tmp/test_check_mode.XXXXXX";
        int fd = mkstemp(name);
        ck_assert_int_ge(fd, 0);
        close(fd);
        path_ = name;
        ck_assert_int_eq(setenv("SIM_CHECK_OUT", path_.c_str(), 1), 0);
    }

    check_report finish()
    {
        std::string human = err_.finish();
        FILE *f = fopen(path_.c_str(), "r");
        ck_assert_ptr_nonnull(f);
        std::string raw = slurp(f);
        fclose(f);
        unlink(path_.c_str());
        unsetenv("SIM_CHECK_OUT");
        check_report r = parse_report(raw);
        r.human = human;
        ck_assert_msg(r.launches.size() == 1, "expected one launch line, got:\n%s\nstderr:\n%s", raw.c_str(),
                      human.c_str());
        ck_assert_msg(r.value("launch") == 1, "the first launch is not launch=1:\n%s", raw.c_str());
        for (const finding_line &fl : r.findings)
            ck_assert_msg(fl.launch == 1, "a finding of launch %llu: %s", fl.launch, fl.whole.c_str());
        ck_assert_msg(contains(r.field("site"), this_file_name() + ":"), "site=%s does not name %s",
                      r.field("site").c_str(), this_file_name().c_str());
        return r;
    }

private:
    static std::string slurp(FILE *f)
    {
        std::string text;
        rewind(f);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        return text;
    }

    std::string path_;
    stderr_capture err_;
};

#define EXPECT(report, key, want)                                                                        \
    do {                                                                                                 \
        unsigned long long got_ = (report).value(key), want_ = (unsigned long long)(want);               \
        ck_assert_msg(got_ == want_, "%s=%llu, want %llu; the check output:\n%s\nstderr:\n%s", key, got_, \
                      want_, (report).raw.c_str(), (report).human.c_str());                              \
    } while (0)

#define EXPECT_NO_FINDINGS(report)                                                                    \
    ck_assert_msg((report).findings.empty(), "expected no findings; the check output:\n%s\nstderr:\n%s", \
                  (report).raw.c_str(), (report).human.c_str())

// Exactly one finding line containing every part; returns it.
static const finding_line &one_finding(const check_report &r, std::initializer_list<const char *> parts)
{
    std::vector<const finding_line *> found = r.matching(parts);
    std::string wanted;
    for (const char *p : parts)
        wanted += std::string(" \"") + p + "\"";
    ck_assert_msg(found.size() == 1, "%zu finding lines contain%s; the check output:\n%s", found.size(),
                  wanted.c_str(), r.raw.c_str());
    return *found[0];
}

// Every count of a problem the checker looks for, apart from `except`.
static void expect_clean_except(const check_report &r, std::initializer_list<const char *> except)
{
    static const char *const problems[] = {"hazards", "uninitialised_shared_reads", "bank_conflicts_ld",
                                           "bank_conflicts_st", "out_of_bounds", "host_accesses",
                                           "divergent_barriers", "block_races"};
    for (const char *p : problems) {
        bool skip = false;
        for (const char *e : except)
            skip = skip || strcmp(p, e) == 0;
        if (!skip)
            EXPECT(r, p, 0);
    }
}

// The line number after "<this file>:" at the first place `after` occurs
// in `text` (0 if none).
static int line_after(const std::string &text, const std::string &after)
{
    size_t at = text.find(after);
    if (at == std::string::npos)
        return 0;
    std::string where = after + this_file_name() + ":";
    if (text.compare(at, where.size(), where) != 0)
        return 0;
    return atoi(text.c_str() + at + where.size());
}

// --------------------------------------------------- tiled matrix product

#define TILE 32

// C = A·B with 32×32 tiles; the two barriers of each phase can be left out.
static const int tile_as_line = __LINE__ + 4;  // As's line; Bs's is the next
template <bool FirstBarrier, bool SecondBarrier>
__global__ void tiled_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int row = (int)blockIdx.y * TILE + ty, col = (int)blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        As[ty][tx] = row < n && ac < n ? A[row * n + ac] : 0.0f;  // tile store
        Bs[ty][tx] = br < n && col < n ? B[br * n + col] : 0.0f;  // tile store
        if (FirstBarrier)
            __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];  // tile read
        if (SecondBarrier)
            __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

// Launches the tiled kernel on n×n inputs; returns what the checker said.
template <bool FirstBarrier, bool SecondBarrier>
static check_report run_tiled(int n)
{
    float *A = dev_floats((size_t)n * n), *B = dev_floats((size_t)n * n, 2.0f), *C = dev_floats((size_t)n * n);
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    checked_run run;
    tiled_matmul<FirstBarrier, SecondBarrier><<<grid, block>>>(A, B, C, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    return run.finish();
}

START_TEST(tiled_correct_counts)
{
    const unsigned long long n = 64;
    check_report r = run_tiled<true, true>((int)n);
    EXPECT(r, "threads", n * n);
    EXPECT(r, "blocks", (n / 32) * (n / 32));
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
    // Each thread loads one element of A and one of B per phase, n/32 phases.
    EXPECT(r, "global_loads", 2 * (n / 32) * n * n);
    EXPECT(r, "max_loads_per_thread", 2 * n / 32);
    EXPECT(r, "global_stores", n * n);
    EXPECT(r, "max_stores_per_thread", 1);
    // A warp is one row of 32 threads: 32 consecutive, 128-byte aligned
    // floats of A or of B per request, 4 sectors.
    EXPECT(r, "load_requests", 2 * (n / 32) * n * n / 32);
    EXPECT(r, "load_sectors", 4 * r.value("load_requests"));
    EXPECT(r, "store_requests", n * n / 32);
    EXPECT(r, "store_sectors", 4 * r.value("store_requests"));
    // Two tile stores per phase, 2·32 tile reads per phase.
    EXPECT(r, "shared_stores", 2 * (n / 32) * n * n);
    EXPECT(r, "shared_loads", 2 * TILE * (n / 32) * n * n);
    ck_assert_msg(contains(r.human, "hazards: 0;"), "the report:\n%s", r.human.c_str());
}
END_TEST

// The hazard findings of a report (the machine lines give one example per
// pair of accesses, so one missing barrier gives several lines): there is
// at least one, each is a `kind` hazard, and each says the barrier is
// missing after a line of this file marked with `marker`.
static void expect_hazards(const check_report &r, const char *kind, const char *marker)
{
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    std::vector<const finding_line *> hazards = r.matching({"hazard"});
    ck_assert_msg(!hazards.empty(), "no hazard finding:\n%s", r.raw.c_str());
    for (const finding_line *f : hazards) {
        ck_assert_msg(contains(f->text, kind) && contains(f->text, "missing after"), "expected a %s: %s", kind,
                      f->whole.c_str());
        ck_assert_msg(contains(f->text, "missing after " + this_file_name() + ":"), "%s", f->whole.c_str());
        int line = line_after(f->text, "missing after ");
        ck_assert_msg(contains(source_line(line), marker), "%s names line %d: \"%s\", not a \"%s\" line",
                      f->whole.c_str(), line, source_line(line).c_str(), marker);
    }
    ck_assert_msg(contains(r.human, kind) && contains(r.human, "missing after " + this_file_name() + ":"),
                  "the report:\n%s", r.human.c_str());
}

// Hazards between threads of several warps: each finding names the block's
// barrier, never __syncwarp(), even for the pairs of accesses (the A tile's,
// whose row is one warp) that happen to meet within a warp.
static void expect_block_barrier_named(const check_report &r)
{
    for (const finding_line *f : r.matching({"hazard"}))
        ck_assert_msg(contains(f->text, "a __syncthreads() is missing") && !contains(f->text, "__syncwarp"), "%s",
                      f->whole.c_str());
}

// Runs the tiled kernel with make check's hazard picture asked for, and
// returns the SVG ("" when none was written).
template <bool FirstBarrier, bool SecondBarrier>
static std::string tiled_hazard_picture(int n)
{
    char path[] = "/tmp/hazard-picture-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);
    ck_assert_int_eq(setenv("SIM_CHECK_HAZARD_PICTURE", path, 1), 0);
    run_tiled<FirstBarrier, SecondBarrier>(n);
    unsetenv("SIM_CHECK_HAZARD_PICTURE");
    std::string svg;
    if (FILE *f = fopen(path, "r")) {
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            svg.append(buf, got);
        fclose(f);
    }
    unlink(path);
    return svg;
}

// The picture of a missing barrier: the kind, both accesses with their
// lines and source text in program order, the slot by name, and where the
// barrier belongs.  (One launch per test: each test is its own process.)
START_TEST(hazard_picture_of_a_missing_first_barrier)
{
    std::string raw = tiled_hazard_picture<false, true>(64);
    ck_assert_msg(contains(raw, "<svg") && contains(raw, "read-after-write hazard"), "%s", raw.c_str());
    size_t store = raw.find("writes "), read = raw.find("reads ");
    ck_assert_msg(store != std::string::npos && read != std::string::npos && store < read,
                  "the store must come first, above the read:\n%s", raw.c_str());
    ck_assert_msg(contains(raw, "missing: __syncthreads() after " + this_file_name() + ":"), "%s", raw.c_str());
    int line = line_after(raw, "missing: __syncthreads() after ");
    ck_assert_msg(contains(source_line(line), "// tile store"), "the barrier belongs after line %d: %s", line,
                  raw.c_str());
    ck_assert_msg(contains(raw, "As[") || contains(raw, "Bs["), "no slot named:\n%s", raw.c_str());
    ck_assert_msg(contains(raw, "acc += As[ty][k] * Bs[k][tx];"), "no source text of the read:\n%s", raw.c_str());
}
END_TEST

START_TEST(hazard_picture_of_a_missing_second_barrier)
{
    std::string war = tiled_hazard_picture<true, false>(64);
    ck_assert_msg(contains(war, "write-after-read hazard"), "%s", war.c_str());
    size_t store = war.find("writes "), read = war.find("reads ");
    ck_assert_msg(store != std::string::npos && read != std::string::npos && read < store,
                  "the read must come first, above the next tile's store:\n%s", war.c_str());
    int line = line_after(war, "missing: __syncthreads() after ");
    ck_assert_msg(contains(source_line(line), "// tile read"), "the barrier belongs after line %d: %s", line,
                  war.c_str());
}
END_TEST

START_TEST(no_hazard_picture_without_a_hazard)
{
    std::string none = tiled_hazard_picture<true, true>(64);
    ck_assert_msg(none.empty(), "a correct kernel got a hazard picture:\n%s", none.c_str());
}
END_TEST

// The first barrier left out: threads read tile words their neighbours
// have not written yet.  The barrier is missing after the tile store.
// (In the first phase those reads also come before any write of the block,
// so they count as never-written reads too.)
START_TEST(tiled_missing_first_barrier)
{
    check_report r = run_tiled<false, true>(64);
    expect_hazards(r, "read-after-write hazard", "// tile store");
    expect_block_barrier_named(r);
    ck_assert_msg(r.matching({"write-after-read"}).empty(), "a write-after-read finding too:\n%s", r.raw.c_str());
    ck_assert_msg(r.value("uninitialised_shared_reads") > 0, "%s", r.raw.c_str());
    // The slot is named by its array and both indices, with where the array
    // is declared.
    std::string as_decl = "] (declared at line " + std::to_string(tile_as_line) + ")",
                bs_decl = "] (declared at line " + std::to_string(tile_as_line + 1) + ")";
    size_t named = r.matching({"read before anything wrote it", "read As[", "][", as_decl.c_str()}).size() +
                   r.matching({"read before anything wrote it", "read Bs[", "][", bs_decl.c_str()}).size();
    ck_assert_msg(named > 0, "no never-written read names As[i][j] or Bs[i][j] and its line (%d, %d):\n%s",
                  tile_as_line, tile_as_line + 1, r.raw.c_str());
    EXPECT(r, "divergent_barriers", 0);
    EXPECT(r, "bank_conflicts_ld", 0);
    EXPECT(r, "bank_conflicts_st", 0);
    EXPECT(r, "out_of_bounds", 0);
    EXPECT(r, "host_accesses", 0);
}
END_TEST

// The second barrier left out: a fast thread's next tile store overwrites
// words slower threads still have to read.  Missing after the tile read.
START_TEST(tiled_missing_second_barrier)
{
    check_report r = run_tiled<true, false>(64);
    expect_hazards(r, "write-after-read hazard", "// tile read");
    expect_block_barrier_named(r);
    ck_assert_msg(r.matching({"read-after-write"}).empty(), "a read-after-write finding too:\n%s", r.raw.c_str());
    expect_clean_except(r, {"hazards"});
}
END_TEST

// Blocks run on several OS threads, taking turns as the machine has it;
// every block finds the same hazard.  The example the report gives is
// still the earliest block's, on every run (each run of this loop test is
// a process of its own): a student who runs make check twice reads the
// same words, and an aarch64 build the same as an x86-64 one.
START_TEST(findings_name_the_earliest_block)
{
    check_report r = run_tiled<true, false>(128);  // 16 blocks, on every OS thread the run has
    std::istringstream human(r.human);
    int examples = 0;
    for (std::string line; std::getline(human, line);)
        if (contains(line, "hazard, block (")) {
            ck_assert_msg(contains(line, "hazard, block (0,0,0)"), "run %d: the example is not block (0,0,0)'s:\n%s",
                          _i, line.c_str());
            examples++;
        }
    ck_assert_msg(examples > 0, "no hazard named a block:\n%s", r.human.c_str());
}
END_TEST

// ------------------------------------------------------ divergent barrier

// Both halves of the warp reach "a" barrier, but not the same one.  (On a
// GPU this is undefined; the simulator lets both go on together.)
__global__ void barrier_in_branches(const float *in, float *out)
{
    __shared__ float s[32];
    unsigned i = threadIdx.x;
    if (i < 16) {
        s[i] = in[i];
        __syncthreads();  // barrier of the first half
        out[i] = s[i + 16];
    } else {
        s[i] = 2.0f * in[i] + 1.0f;
        __syncthreads();  // barrier of the second half
        out[i] = s[i - 16] * 3.0f;
    }
}

static check_report run_barrier_in_branches()
{
    float *in = dev_floats(32), *out = dev_floats(32);
    checked_run run;
    barrier_in_branches<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    return run.finish();
}

START_TEST(divergent_barrier)
{
    check_report r = run_barrier_in_branches();
    EXPECT(r, "divergent_barriers", 1);  // one block, one phase
    expect_clean_except(r, {"divergent_barriers"});
    const finding_line &f = one_finding(r, {"barrier in divergent code"});
    ck_assert_msg(contains(f.text, "block (0,0,0): threads wait at different __syncthreads()"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    ck_assert_msg(contains(r.human, "barrier in divergent code"), "the report:\n%s", r.human.c_str());
}
END_TEST

// The finding must say where the two barriers are: the kernel's two
// __syncthreads() lines, which differ.  (Fails while the checker names the
// line inside cuda_sim.h that __syncthreads() is inlined from, the same for
// both: "(cuda_sim.h:220 and cuda_sim.h:220)".)
START_TEST(divergent_barrier_names_the_kernel_lines)
{
    check_report r = run_barrier_in_branches();
    const finding_line &f = one_finding(r, {"barrier in divergent code"});
    int first = line_after(f.text, "__syncthreads() (");
    size_t and_at = f.text.find(" and ");
    int second = and_at == std::string::npos ? 0 : line_after(f.text.substr(and_at), " and ");
    ck_assert_msg(first > 0 && second > 0, "the finding does not name two lines of %s: %s", this_file_name().c_str(),
                  f.whole.c_str());
    ck_assert_msg(first != second, "one line named twice: %s", f.whole.c_str());
    for (int line : {first, second})
        ck_assert_msg(contains(source_line(line), "__syncthreads();  // barrier of the"), "%s names line %d: \"%s\"",
                      f.whole.c_str(), line, source_line(line).c_str());
}
END_TEST

// ----------------------------------------------------------- bank conflicts

// One warp writes a column: all 32 words in bank 0, 32 wavefronts.  Lane 0
// then sums the column alone (one lane per request: no conflict).
__global__ void column_store(const float *in, float *out)
{
    __shared__ float s[32][32];
    s[threadIdx.x][0] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int r = 0; r < 32; r++)
            sum += s[r][0];
        out[0] = sum;
    }
}

START_TEST(column_store_32_way)
{
    float *in = dev_floats(32), *out = dev_floats(1);
    checked_run run;
    column_store<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 32);  // one request
    EXPECT(r, "shared_column_stores", 1);  // down a column: each lane a row (32 words) apart
    EXPECT(r, "bank_conflicts_st", 31);
    EXPECT(r, "bank_conflicts_ld", 0);
    expect_clean_except(r, {"bank_conflicts_st"});
    const finding_line &f = one_finding(r, {"32-way"});
    ck_assert_str_eq(f.kind.c_str(), "bank_conflict");
    ck_assert_msg(contains(f.whole, "kind=bank_conflict 32-way store at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    ck_assert_msg(contains(r.human, "32-way bank conflict at " + this_file_name() + ":"), "the report:\n%s",
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "(store, 1 requests, 31 extra wavefronts)"), "the report:\n%s", r.human.c_str());
    ck_assert_float_eq(to_host(out, 1)[0], 32.0f + 31.0f * 32.0f / 2.0f);  // 1 + 2 + ... + 32
}
END_TEST

// A row store (32 banks) and a broadcast read of one word.
__global__ void row_store_broadcast_read(const float *in, float *out)
{
    __shared__ float s[32][32];
    s[0][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[0][5];
}

START_TEST(broadcast_and_row_are_conflict_free)
{
    float *in = dev_floats(32), *out = dev_floats(32);
    checked_run run;
    row_store_broadcast_read<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 32);
    EXPECT(r, "shared_loads", 32);
    EXPECT(r, "shared_column_stores", 0);  // along a row: lanes one word apart
    EXPECT(r, "bank_conflicts_ld", 0);
    EXPECT(r, "bank_conflicts_st", 0);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
    ck_assert_msg(!contains(r.human, "bank conflict at"), "the report:\n%s", r.human.c_str());
    ck_assert_float_eq(to_host(out, 32)[31], 6.0f);
}
END_TEST

// Fills 33 rows of 32 words (row stores, conflict-free), then each lane
// reads word stride·lane.
__global__ void strided_shared_read(const float *in, float *out, int stride)
{
    __shared__ float s_flat[33 * 32];
    for (int j = 0; j < 33; j++)
        s_flat[j * 32 + threadIdx.x] = in[j * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s_flat[stride * threadIdx.x];
}

static check_report run_strided_shared(int stride)
{
    float *in = dev_floats(33 * 32), *out = dev_floats(32);
    checked_run run;
    strided_shared_read<<<1, 32>>>(in, out, stride);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_loads", 32);  // one request
    EXPECT(r, "shared_stores", 33 * 32);
    EXPECT(r, "bank_conflicts_st", 0);
    return r;
}

// Words 0, 2, ..., 62: banks 0, 2, ..., 30, two words each.
START_TEST(stride_2_is_2_way)
{
    check_report r = run_strided_shared(2);
    EXPECT(r, "bank_conflicts_ld", 1);
    expect_clean_except(r, {"bank_conflicts_ld"});
    const finding_line &f = one_finding(r, {"2-way"});
    ck_assert_msg(contains(f.whole, "kind=bank_conflict 2-way load at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
}
END_TEST

// Words 33·i: bank i for lane i, as a column of a [32][33] array.
START_TEST(stride_33_is_conflict_free)
{
    check_report r = run_strided_shared(33);
    EXPECT(r, "bank_conflicts_ld", 0);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// --------------------------------------------------------------- coalescing

__global__ void strided_global_read(const float *A, float *out, int stride)
{
    out[threadIdx.x] = A[threadIdx.x * stride];
}

static check_report run_strided_global(int stride)
{
    float *A = dev_floats(32 * 1024), *out = dev_floats(32);
    checked_run run;
    strided_global_read<<<1, 32>>>(A, out, stride);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "global_loads", 32);
    EXPECT(r, "load_requests", 1);
    EXPECT(r, "global_stores", 32);
    EXPECT(r, "store_requests", 1);
    EXPECT(r, "store_sectors", 4);
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
    return r;
}

// Lane i reads A[1024·i]: 32 lanes, 32 sectors 4 KiB apart.
START_TEST(uncoalesced_load_32_sectors)
{
    check_report r = run_strided_global(1024);
    EXPECT(r, "load_sectors", 32);
    ck_assert_msg(contains(r.human, "32.0 sectors per request (uncoalesced"), "the report:\n%s", r.human.c_str());
}
END_TEST

// Lane i reads A[i]: 128 contiguous, aligned bytes, 4 sectors.
START_TEST(coalesced_load_4_sectors)
{
    check_report r = run_strided_global(1);
    EXPECT(r, "load_sectors", 4);
    ck_assert_msg(!contains(r.human, "uncoalesced"), "the report:\n%s", r.human.c_str());
}
END_TEST

// ------------------------------------------------------------- cp.async

// 32 lanes copy 128 floats into shared memory with 16-byte cp.async copies
// (lane i copies words 4i..4i+3), then lane i reads word i - 4, which a
// lower lane copied (lane 0 reads word 0).  Before: what each lane reads of
// its own first word before the wait (its copy has not landed).  SkipWait and SkipBarrier
// leave out the two steps that make another lane's word safe to read;
// ZeroFill asks for zeros instead of a read.  The reads are of consecutive
// words, so they have no bank conflicts of their own.
template <bool SkipWait, bool SkipBarrier, bool ZeroFill>
__global__ void async_copy_neighbours(const float *in, float *before, float *out)
{
    __shared__ __attribute__((aligned(16))) float s[128];
    int i = (int)threadIdx.x;
    __pipeline_memcpy_async(&s[4 * i], &in[4 * i], 16, ZeroFill ? 16 : 0);  // async copy
    __pipeline_commit();
    before[i] = reinterpret_cast<const float4 *>(s)[i].x;  // its own words
    if (!SkipWait)
        __pipeline_wait_prior(0);
    if (!SkipBarrier)
        __syncthreads();
    out[i] = s[i < 4 ? 0 : i - 4];
}

template <bool SkipWait, bool SkipBarrier, bool ZeroFill>
static check_report run_async_copy(std::vector<float> *before, std::vector<float> *out)
{
    float *in = dev_floats(128), *b = dev_floats(32), *o = dev_floats(32);
    checked_run run;
    async_copy_neighbours<SkipWait, SkipBarrier, ZeroFill><<<1, 32>>>(in, b, o);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    *before = to_host(b, 32);
    *out = to_host(o, 32);
    return run.finish();
}

// The copies land at the wait: before it no word is written, after it and
// the barrier each holds its input.  Each copy counts
// as one 16-byte global load and one 16-byte shared store.
START_TEST(async_copy_lands_at_the_wait)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, false, false>(&before, &out);
    for (int i = 0; i < 32; i++) {
        ck_assert_msg(before[i] != before[i], "lane %d read %g before any copy landed (want the NaN shared memory "
                      "starts with)", i, before[i]);
        ck_assert_msg(out[i] == 1.0f + (float)(i < 4 ? 0 : i - 4), "lane %d read %g", i, out[i]);
    }
    EXPECT(r, "global_loads", 32);
    EXPECT(r, "global_load_bytes", 32 * 16);
    EXPECT(r, "load_requests", 1);
    EXPECT(r, "load_sectors", 16);
    EXPECT(r, "shared_stores", 32);
    EXPECT(r, "uninitialised_shared_reads", 128);  // 4 words per lane before the wait
    expect_clean_except(r, {"uninitialised_shared_reads"});
}
END_TEST

// Waiting is not enough: without a barrier a lane reads its neighbour's word
// before the neighbour's wait has landed it.  The hazard names the copy.
START_TEST(async_copy_without_barrier_is_a_hazard)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, true, false>(&before, &out);
    expect_hazards(r, "read-after-write hazard", "// async copy");
}
END_TEST

// Without a wait the copies never land: every read of the tile is of a word
// no copy has written.
START_TEST(async_copy_never_waited_never_lands)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<true, false, false>(&before, &out);
    EXPECT(r, "global_loads", 0);
    EXPECT(r, "shared_stores", 0);
    EXPECT(r, "uninitialised_shared_reads", 128 + 32);
    for (int i = 0; i < 32; i++)
        ck_assert_msg(out[i] != out[i], "lane %d read %g from a tile no copy reached (want the NaN shared memory "
                      "starts with)", i, out[i]);
}
END_TEST

// A zero fill of all 16 bytes reads nothing and stores zeros.
START_TEST(async_copy_zero_fill_reads_nothing)
{
    std::vector<float> before, out;
    check_report r = run_async_copy<false, false, true>(&before, &out);
    EXPECT(r, "global_loads", 0);
    EXPECT(r, "shared_stores", 32);
    for (int i = 0; i < 32; i++)
        ck_assert_msg(out[i] == 0.0f, "lane %d read %g, want a zero fill", i, out[i]);
}
END_TEST

// ------------------------------------------------------------ out of bounds

__global__ void read_shifted(const float *in, float *out, int n, int shift)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = in[i + shift];
}

// 1000 floats (4000 bytes): in[1000] is in the allocation's slack up to
// 4096 bytes, so nothing faults, but the checker sees it.
START_TEST(out_of_bounds_read_in_slack)
{
    const int n = 1000;
    float *in = dev_floats(n), *out = dev_floats(n);
    checked_run run;
    read_shifted<<<4, 250>>>(in, out, n, 1);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "out_of_bounds", 1);
    expect_clean_except(r, {"out_of_bounds"});
    const finding_line &f = one_finding(r, {"out-of-bounds read"});
    ck_assert_msg(contains(f.text, "out-of-bounds read at " + this_file_name() + ":"), "%s", f.whole.c_str());
    ck_assert_msg(contains(f.text, "block (3,0,0): thread (249,0,0)"), "%s", f.whole.c_str());
    ck_assert_msg(contains(f.text, "0 bytes past the end of a 4000-byte device allocation"), "%s", f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
    EXPECT(r, "global_stores", n);
}
END_TEST

// A kernel that uses dynamic shared memory past what its launch gave it:
// a GPU faults there, so check mode reports it, naming the launch's size.
__global__ void reverse_in_dynamic_shared(const float *in, float *out)
{
    extern __shared__ float staged[];
    staged[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

START_TEST(dynamic_shared_past_the_launch_size)
{
    // (A launch that gives the whole size finds nothing: every stage 08
    // solution's check run is such a launch.)
    float *in = dev_floats(64), *out = dev_floats(64);
    checked_run run;
    reverse_in_dynamic_shared<<<1, 64, 32 * sizeof(float)>>>(in, out);  // half the size
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    // The 32 upper threads store past the 128 bytes, and 32 lower ones read there.
    EXPECT(r, "out_of_bounds", 64);
    const finding_line &f = one_finding(r, {"out-of-bounds write"});
    ck_assert_msg(contains(f.text, "of dynamic shared memory (extern __shared__), of which the launch asked for 128 bytes"),
                  "%s", f.whole.c_str());
}
END_TEST

// ------------------------------------------------------------- host memory

static float host_array[64];

__global__ void read_through(const float *p, float *out) { out[threadIdx.x] = p[threadIdx.x]; }

START_TEST(host_pointer_read)
{
    for (int i = 0; i < 64; i++)
        host_array[i] = (float)i;
    float *out = dev_floats(64);
    checked_run run;
    read_through<<<1, 64>>>(host_array, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 64);  // every thread, once
    EXPECT(r, "global_stores", 64);
    expect_clean_except(r, {"host_accesses"});
    const finding_line &f = one_finding(r, {"host memory"});
    ck_assert_msg(contains(f.text, "host memory read by a kernel at " + this_file_name() + ":"), "%s",
                  f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
}
END_TEST

// A __device__ variable lives in host memory on the simulator, but it is
// global memory on a GPU: reads and writes of it are global accesses, not
// host memory (the rewrite registers it, rewrite_launch.c).
// Declared by a macro used twice too: each registration is named afresh.
#define DEVICE_TABLE(name) __device__ float name[32];
DEVICE_TABLE(table_low)
DEVICE_TABLE(table_high)
__device__ int device_counter;

__global__ void use_device_variables(float *out)
{
    float *table = threadIdx.x < 32 ? table_low : table_high;
    table[threadIdx.x % 32] = (float)threadIdx.x;
    if (threadIdx.x == 0)
        device_counter = 1;
    out[threadIdx.x] = table[threadIdx.x % 32] * device_counter;
}

// One thread copies a row into shared memory in a loop of the run's length:
// a compiler would make that loop a memcpy call, whose accesses no hook
// sees; check builds keep it a loop (backend.mk), so every load and store
// counts and the reads after the barrier read what was written.
__global__ void one_thread_copies(const float *in, float *out, int count)
{
    __shared__ float row[64];
    if (threadIdx.x == 0)
        for (int i = 0; i < count; i++)
            row[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = row[threadIdx.x];
}

START_TEST(copy_loops_are_counted)
{
    const int n = 64;
    float *in = dev_floats(n), *out = dev_floats(n);
    CUDA_OK(cudaMemset(in, 0, n * sizeof(float)));
    checked_run run;
    one_thread_copies<<<1, n>>>(in, out, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "global_loads", n);
    EXPECT(r, "shared_stores", n);
    EXPECT(r, "shared_loads", n);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT(r, "hazards", 0);
}
END_TEST

START_TEST(device_variables_are_global_memory)
{
    float *out = dev_floats(64);
    checked_run run;
    use_device_variables<<<1, 64>>>(out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 0);
    EXPECT(r, "global_stores", 64 + 1 + 64);
    EXPECT(r, "global_loads", 64 + 64);
    ck_assert_int_eq(r.findings.size(), 0);
}
END_TEST

// malloc in a kernel takes device memory from the device's heap, on a GPU
// and here (sim/device_heap.cpp): accesses to it are global ones.
__global__ void uses_the_device_heap(float *out)
{
    volatile float *scratch = (volatile float *)malloc(4 * sizeof(float));  // kept: read back
    scratch[0] = (float)threadIdx.x;
    out[threadIdx.x] = scratch[0];
    free((void *)scratch);
}

START_TEST(device_heap_blocks_are_global_memory)
{
    float *out = dev_floats(64);
    checked_run run;
    uses_the_device_heap<<<1, 64>>>(out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "host_accesses", 0);
    EXPECT(r, "global_stores", 64 + 64);
    EXPECT(r, "global_loads", 64);
    ck_assert_int_eq(r.findings.size(), 0);
}
END_TEST

// ------------------------------------------------------------- a spin

// Never ends, and loads on every turn (volatile: the loop cannot be folded
// away): check mode's records would grow until the run ran out of memory.
__global__ void spin_loading(const float *p, float *out)
{
    float sum = 0.0f;
    for (unsigned i = 0;; i = (i + 1) % 64)
        sum += ((volatile const float *)p)[i];
    out[threadIdx.x] = sum;
}

START_TEST(spinning_kernel_is_stopped)
{
    // A 2^20-record limit instead of 2^24: the same stop, sixteen times
    // sooner (read at the first record, in this test's own process).
    setenv("SIM_CHECK_PHASE_RECORDS", "1048576", 1);
    float *in = dev_floats(64), *out = dev_floats(32);
    checked_run run;
    spin_loading<<<1, 32>>>(in, out);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    check_report r = run.finish();
    ck_assert_msg(e == cudaErrorLaunchTimeout, "got %s, want cudaErrorLaunchTimeout; stderr:\n%s", cudaGetErrorName(e),
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "seems not to finish"), "the message does not call it a spin:\n%s",
                  r.human.c_str());
    ck_assert_msg(contains(r.human, "more than 1048576 memory accesses"), "not stopped at the limit asked for:\n%s",
                  r.human.c_str());
}
END_TEST

// ------------------------------------------------- uninitialised shared read

// Reads its word before anything wrote it, then writes it and (after a
// barrier) reads a neighbour's: only the first 32 reads are findings.
static const int read_before_write_s_line = __LINE__ + 3;
__global__ void read_before_write(const float *in, float *out)
{
    __shared__ float s[32];
    float early = s[threadIdx.x];
    __syncthreads();
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = early + s[(threadIdx.x + 1) % 32];
}

START_TEST(uninitialised_shared_read)
{
    float *in = dev_floats(32), *out = dev_floats(32);
    checked_run run;
    read_before_write<<<1, 32>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "uninitialised_shared_reads", 32);
    EXPECT(r, "shared_loads", 64);
    EXPECT(r, "shared_stores", 32);
    expect_clean_except(r, {"uninitialised_shared_reads"});
    const finding_line &f = one_finding(r, {"shared memory read before anything wrote it"});
    ck_assert_msg(contains(f.text, "at " + this_file_name() + ":"), "%s", f.whole.c_str());
    // The slot by name and index, and where the array is declared.
    ck_assert_msg(contains(f.text, "read s[") && contains(f.text, "] (declared at line " +
                                                                       std::to_string(read_before_write_s_line) + ")"),
                  "%s", f.whole.c_str());
    ck_assert_int_eq(r.findings.size(), 1);
}
END_TEST

// The two branches of an if/else store to one slot; the optimiser merges
// the stores into one instruction that no single line owns (line 0).  The
// hazard against the neighbour's read (no barrier) must still name a line.
__global__ void stores_in_if_else(const float *in, float *out, int n)
{
    __shared__ float s[32];
    if ((int)threadIdx.x < n)
        s[threadIdx.x] = in[threadIdx.x];
    else
        s[threadIdx.x] = 0.0f;
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}

START_TEST(every_access_has_a_line)
{
    float *in = dev_floats(32), *out = dev_floats(32);
    checked_run run;
    stores_in_if_else<<<1, 32>>>(in, out, 20);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    ck_assert_msg(r.value("hazards") > 0, "%s", r.raw.c_str());
    for (const finding_line &f : r.findings) {
        ck_assert_msg(!contains(f.text, ":?") && !contains(f.text, "??") && !contains(f.text, ":0 ") &&
                          !contains(f.text, ":0,"),
                      "a finding without its line:\n%s", f.whole.c_str());
        ck_assert_msg(contains(f.text, this_file_name() + ":"), "%s", f.whole.c_str());
    }
}
END_TEST

// ------------------------------------------------------ no false findings

// Each thread writes, updates and reads back only its own shared word, with
// no barrier: nothing is shared, so nothing is a hazard.  (volatile keeps
// every access: otherwise the compiler forwards a thread's store to its
// own load and no shared access is left to check.)
__global__ void own_words_only(const float *in, float *out, int rounds)
{
    __shared__ volatile float s[64];
    unsigned i = threadIdx.x;
    s[i] = in[i];
    for (int k = 0; k < rounds; k++) {
        s[i] = s[i] * 0.5f + in[i];
        out[i] = s[i];
    }
}

START_TEST(own_words_have_no_hazard)
{
    float *in = dev_floats(64), *out = dev_floats(64);
    checked_run run;
    own_words_only<<<1, 64>>>(in, out, 3);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    EXPECT(r, "shared_stores", 64 * (1 + 3));  // per thread: 1, then 1 per round
    EXPECT(r, "shared_loads", 64 * (2 * 3));   // 2 per round
    expect_clean_except(r, {});
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// Lanes of one warp pass values through shared memory, ordered by
// __syncwarp() alone: each writes its word, meets the others, reads its
// neighbour's, meets them again, and writes its own word anew.  Without the
// meetings each step is a hazard; with them, none.  Across warps a
// __syncwarp() orders nothing.
__global__ void warp_passes_through_shared(float *out, int meet, int across_warps)
{
    __shared__ volatile float s[64];
    unsigned t = threadIdx.x, lane = t % 32, from = across_warps ? (t + 32) % 64 : t - lane + (lane + 1) % 32;
    s[t] = (float)t;
    if (meet)
        __syncwarp();
    float v = s[from];
    if (meet)
        __syncwarp();
    s[t] = v + 1.0f;
    out[t] = v;
}

static check_report run_warp_passes(int meet, int across_warps)
{
    float *out = dev_floats(64);
    checked_run run;
    warp_passes_through_shared<<<1, 64>>>(out, meet, across_warps);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    return run.finish();
}

START_TEST(warp_meetings_order_a_warp)
{
    check_report r = run_warp_passes(1, 0);
    EXPECT(r, "hazards", 0);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// Every hazard between lanes of one warp (code written for warps that ran
// in lockstep): the finding offers __syncwarp() and says why.
START_TEST(without_warp_meetings_a_hazard)
{
    check_report r = run_warp_passes(0, 0);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    for (const finding_line *f : r.matching({"hazard"}))
        ck_assert_msg(contains(f->text, "a __syncwarp() (or __syncthreads()) is missing after") &&
                          contains(f->text, "lanes of one warp"),
                      "%s", f->whole.c_str());
}
END_TEST

// Across warps only the block's barrier orders them, and only it is named.
START_TEST(warp_meetings_order_no_other_warp)
{
    check_report r = run_warp_passes(1, 1);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    for (const finding_line *f : r.matching({"hazard"}))
        ck_assert_msg(contains(f->text, "a __syncthreads() is missing") && !contains(f->text, "__syncwarp"), "%s",
                      f->whole.c_str());
}
END_TEST

// Atomics compile to no plain load or store: check mode is told of each.
// Thread 0 zeroes a shared word; after a barrier (or, with `no_barrier`,
// without one) every thread adds to it atomically, and to a global total;
// after another barrier thread 0 stores the sum.  Atomics beside atomics
// are no hazard; a plain store beside them is.
__global__ void atomic_totals(float *out, int no_barrier)
{
    __shared__ float sum;
    if (threadIdx.x == 0)
        sum = 0.0f;
    if (!no_barrier)
        __syncthreads();
    atomicAdd(&sum, 1.0f);
    atomicAdd(&out[1], 1.0f);
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = sum;
}

static check_report run_atomic_totals(int no_barrier, std::vector<float> *out_host)
{
    float *out = dev_floats(2);
    CUDA_OK(cudaMemset(out, 0, 2 * sizeof(float)));
    checked_run run;
    atomic_totals<<<1, 64>>>(out, no_barrier);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    *out_host = to_host(out, 2);
    return r;
}

START_TEST(atomics_are_counted_and_race_free)
{
    std::vector<float> out;
    check_report r = run_atomic_totals(0, &out);
    ck_assert_float_eq(out[0], 64.0f);
    ck_assert_float_eq(out[1], 64.0f);
    EXPECT(r, "global_stores", 64 + 1);  // each thread's atomic, and thread 0's store
    EXPECT(r, "shared_stores", 1 + 64);  // the zero, and each thread's atomic
    EXPECT(r, "global_loads", 0);        // the atomics' old values are dropped: no load
    EXPECT(r, "shared_loads", 1);        // thread 0's read of the sum
    EXPECT(r, "hazards", 0);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

START_TEST(plain_store_beside_atomics_is_a_hazard)
{
    std::vector<float> out;
    check_report r = run_atomic_totals(1, &out);
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
}
END_TEST

// An atomic whose old value the kernel uses has loaded the word (a GPU's
// ATOM, where a dropped value makes a RED): counted once as a load of its
// width, in global and in shared memory, however often the value is read.
__global__ void atomic_tickets(unsigned *counter, unsigned *out)
{
    __shared__ unsigned local;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    auto ticket = atomicAdd(counter, 1u);
    unsigned mine = atomicAdd(&local, 1u);
    out[ticket] = ticket + mine - mine;
}

START_TEST(atomic_values_used_are_loads)
{
    unsigned *counter = nullptr, *out = nullptr;
    CUDA_OK(cudaMalloc(&counter, sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&out, 64 * sizeof(unsigned)));
    CUDA_OK(cudaMemset(counter, 0, sizeof(unsigned)));
    checked_run run;
    atomic_tickets<<<1, 64>>>(counter, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<unsigned> tickets(64);
    CUDA_OK(cudaMemcpy(tickets.data(), out, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(tickets[i], i);
    EXPECT(r, "global_loads", 64);
    EXPECT(r, "global_load_bytes", 64 * 4);
    EXPECT(r, "global_stores", 64 + 64);  // the atomics, and the stores of the tickets
    EXPECT(r, "shared_loads", 64);
    EXPECT(r, "shared_stores", 1 + 64);
    EXPECT_NO_FINDINGS(r);
}
END_TEST

// memcpy and memset in a kernel are counted as the accesses they make: the
// widest the addresses' alignment allows.  Sixteen threads each copy four
// floats into a shared tile (one 16-byte load and store each), and three
// more (12 bytes: an 8-byte access, then a 4-byte one); then each zeroes
// four floats of the output and stores one.
__global__ void copies_by_memcpy(const float *in, float *out)
{
    __shared__ SIM_ALIGN(16) float tile[64];
    __shared__ SIM_ALIGN(16) float three[64];
    int i = threadIdx.x;
    memcpy(&tile[4 * i], &in[4 * i], 4 * sizeof(float));
    memcpy(&three[4 * i], &in[4 * i], 3 * sizeof(float));
    __syncthreads();
    memset(&out[4 * i], 0, 4 * sizeof(float));
    out[4 * i] = tile[63 - 4 * i] + three[62 - 4 * i];
}

START_TEST(device_memcpy_and_memset_are_counted)
{
    float *in = dev_floats(64), *out = dev_floats(64);
    std::vector<float> ramp(64);
    for (int i = 0; i < 64; i++)
        ramp[i] = (float)i;
    CUDA_OK(cudaMemcpy(in, ramp.data(), sizeof(float) * 64, cudaMemcpyHostToDevice));
    checked_run run;
    copies_by_memcpy<<<1, 16>>>(in, out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<float> got = to_host(out, 64);
    for (int i = 0; i < 16; i++) {
        ck_assert_float_eq(got[4 * i], (float)(63 - 4 * i) + (float)(62 - 4 * i));
        ck_assert_float_eq(got[4 * i + 1], 0.0f);
    }
    EXPECT(r, "global_loads", 16 + 16 * 2);
    EXPECT(r, "global_load_bytes", 16 * (16 + 12));
    EXPECT(r, "shared_stores", 16 + 16 * 2);
    EXPECT(r, "shared_store_bytes", 16 * (16 + 12));
    EXPECT(r, "global_stores", 16 + 16);  // the memsets (16 bytes each), and one float each
    EXPECT(r, "global_store_bytes", 16 * 16 + 16 * 4);
    EXPECT(r, "hazards", 0);  // (the strided reads and the 8-byte stores have bank conflicts: no matter)
    EXPECT(r, "out_of_bounds", 0);
}
END_TEST

// A copy of a whole structure is no load or store instruction in clang's
// IR (an llvm.memcpy call, expanded later): the check build calls the
// simulator in its place (compile_checked.sh), so each thread's copy of 8
// floats into a shared tile is two 16-byte loads and stores, and the reads
// of the tile after the barrier read words that were written.
struct eight_floats {
    float v[8];
};

__global__ void copies_by_assignment(const float *in, float *out, int lane_of_row)
{
    __shared__ SIM_ALIGN(16) float tile[8 * 8];
    int i = threadIdx.x;
    *(eight_floats *)&tile[8 * i] = *(const eight_floats *)&in[8 * i];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < 8; k++)
        sum += tile[8 * ((i + lane_of_row) % 8) + k];
    out[i] = sum;
}

START_TEST(structure_copies_are_counted)
{
    float *in = dev_floats(64), *out = dev_floats(8);
    std::vector<float> ramp(64);
    for (int i = 0; i < 64; i++)
        ramp[i] = (float)i;
    CUDA_OK(cudaMemcpy(in, ramp.data(), sizeof(float) * 64, cudaMemcpyHostToDevice));
    checked_run run;
    copies_by_assignment<<<1, 8>>>(in, out, 1);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    std::vector<float> got = to_host(out, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_float_eq(got[i], (float)(8 * (8 * ((i + 1) % 8)) + 28));
    EXPECT(r, "global_load_bytes", 8 * 32);
    EXPECT(r, "global_loads", 8 * 2);
    EXPECT(r, "shared_store_bytes", 8 * 32);
    EXPECT(r, "uninitialised_shared_reads", 0);
    EXPECT(r, "hazards", 0);
}
END_TEST

// An atomic one past the end of an allocation is out of bounds, as a store is.
__global__ void atomic_past_end(int *counts, int n)
{
    if (threadIdx.x == 0)
        atomicAdd(&counts[n], 1);
}

START_TEST(atomic_out_of_bounds_is_found)
{
    const int n = 1000;  // as out_of_bounds_read_in_slack: the word past the end is in the allocation's slack
    int *counts = nullptr;
    CUDA_OK(cudaMalloc(&counts, n * sizeof(int)));
    checked_run run;
    atomic_past_end<<<1, 32>>>(counts, n);
    cudaDeviceSynchronize();  // the store faults, as a GPU's would (its error is not what is tested here)
    check_report r = run.finish();
    EXPECT(r, "out_of_bounds", 1);
    one_finding(r, {"out-of-bounds write"});
}
END_TEST

// ------------------------------------------------------- races between blocks

// Blocks of one launch hand words to each other: what check mode calls a
// race between blocks, and what it does not.
enum block_handover {
    plain_add, atomic_add, same_value_stores, zeroed_then_atomic, fenced_last_block, unfenced_last_block,
    block_scoped_add, system_scoped_add, block_scoped_own_word, atomic_then_plain_read
};

__global__ void hand_over(float *sums, float *partials, unsigned *tickets, int how)
{
    int b = blockIdx.x;
    if (how == block_scoped_own_word) {  // a block's threads add into its own word: atomic enough
        atomicAdd_block(&partials[b], 1.0f);
        return;
    }
    if (threadIdx.x != 0)
        return;
    switch (how) {
    case plain_add:  // split-k's lost update: every block reads what another stored
        sums[0] += 1.0f;
        break;
    case atomic_add:
        atomicAdd(&sums[0], 1.0f);
        break;
    case block_scoped_add:  // atomic within a block, not between blocks
        atomicAdd_block(&sums[0], 1.0f);
        break;
    case system_scoped_add:
        atomicAdd_system(&sums[0], 1.0f);
        break;
    case same_value_stores:  // overlapping tiles written twice with one value: stores only
        sums[0] = 7.0f;
        break;
    case atomic_then_plain_read:  // each block adds, then reads the sum as it stands: what others added, or not
        atomicAdd(&sums[0], 1.0f);
        partials[b] = sums[0];
        break;
    case zeroed_then_atomic:  // block 0 zeroes the sum in the same launch the others add to it
        if (b == 0)
            sums[0] = 0.0f;
        atomicAdd(&sums[0], 1.0f);
        break;
    case fenced_last_block:
    case unfenced_last_block: {  // each block stores its part; the last to finish adds them up
        partials[b] = (float)b;
        if (how == fenced_last_block)
            __threadfence();
        if (atomicInc(&tickets[0], gridDim.x) == gridDim.x - 1) {
            float total = 0.0f;
            for (unsigned k = 0; k < gridDim.x; k++)
                total += partials[k];
            sums[1] = total;
        }
        break;
    }
    }
}

static check_report run_hand_over(int how, std::vector<float> *sums_host, std::vector<float> *partials_host = nullptr)
{
    const int blocks = 64;
    float *sums = dev_floats(2), *partials = dev_floats(blocks);
    unsigned *tickets = nullptr;
    CUDA_OK(cudaMalloc(&tickets, sizeof(unsigned)));
    CUDA_OK(cudaMemset(tickets, 0, sizeof(unsigned)));
    CUDA_OK(cudaMemset(sums, 0, 2 * sizeof(float)));
    checked_run run;
    hand_over<<<blocks, 32>>>(sums, partials, tickets, how);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    *sums_host = to_host(sums, 2);
    if (partials_host)
        *partials_host = to_host(partials, blocks);
    return r;
}

START_TEST(plain_adds_of_blocks_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(plain_add, &sums);
    ck_assert_msg(r.value("block_races") > 0, "no race between blocks found:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", " read byte 0 of a 8-byte device allocation at " }).empty(),
                  "the finding does not say which word was read:\n%s", r.raw.c_str());
}
END_TEST

// Each test one launch: check_report wants launch=1.
START_TEST(atomic_after_another_blocks_store_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(zeroed_then_atomic, &sums);
    ck_assert_msg(r.value("block_races") > 0, "an atomic after another block's store is no race:\n%s", r.raw.c_str());
    // Found whichever ran first: block 0's store, or another block's atomic.
    ck_assert_msg(!r.matching({"race between blocks", "atomically updated"}).empty() ||
                      !r.matching({"race between blocks", "stored", "had updated atomically"}).empty(),
                  "%s", r.raw.c_str());
}
END_TEST

// A plain read of a word other blocks update atomically: found whichever
// block runs first, since every block after the first reads after another's
// update.
START_TEST(plain_read_after_another_blocks_atomic_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(atomic_then_plain_read, &sums);
    ck_assert_msg(r.value("block_races") > 0, "a read after another block's atomic is no race:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", " read ", "had updated atomically"}).empty(), "%s",
                  r.raw.c_str());
}
END_TEST

START_TEST(unfenced_last_block_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(unfenced_last_block, &sums);
    ck_assert_msg(r.value("block_races") > 0, "the unfenced last block's reads are no race:\n%s", r.raw.c_str());
}
END_TEST

START_TEST(atomics_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(atomic_add, &sums);
    ck_assert_float_eq(sums[0], 64.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

// Atomics of block scope are atomic among one block's threads: between
// blocks they race like a plain update; of system scope, like atomicAdd.
START_TEST(block_scoped_atomics_of_blocks_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(block_scoped_add, &sums);
    ck_assert_msg(r.value("block_races") > 0, "atomicAdd_block from every block is no race:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", "with an atomic of block scope", "atomicAdd, not atomicAdd_block"})
                       .empty(),
                  "%s", r.raw.c_str());
}
END_TEST

START_TEST(system_scoped_atomics_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(system_scoped_add, &sums);
    ck_assert_float_eq(sums[0], 64.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(block_scoped_atomics_within_a_block_do_not_race)
{
    std::vector<float> sums, partials;
    check_report r = run_hand_over(block_scoped_own_word, &sums, &partials);
    for (size_t b = 0; b < partials.size(); b++)  // dev_floats began them at 1 + b
        ck_assert_float_eq(partials[b], 1.0f + (float)b + 32.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(stores_alone_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(same_value_stores, &sums);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(fenced_last_block_does_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(fenced_last_block, &sums);
    ck_assert_float_eq(sums[1], 63.0f * 64.0f / 2.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

// ------------------------------------------------------------------- suite

static Suite *check_mode_suite(void)
{
    Suite *s = suite_create("check_mode");
    TCase *tc;

    tc = tcase_create("hazards");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, tiled_correct_counts);
    tcase_add_test(tc, tiled_missing_first_barrier);
    tcase_add_test(tc, tiled_missing_second_barrier);
    tcase_add_loop_test(tc, findings_name_the_earliest_block, 0, 6);
    tcase_add_test(tc, divergent_barrier);
    tcase_add_test(tc, divergent_barrier_names_the_kernel_lines);
    tcase_add_test(tc, own_words_have_no_hazard);
    tcase_add_test(tc, warp_meetings_order_a_warp);
    tcase_add_test(tc, without_warp_meetings_a_hazard);
    tcase_add_test(tc, warp_meetings_order_no_other_warp);
    tcase_add_test(tc, atomics_are_counted_and_race_free);
    tcase_add_test(tc, atomic_values_used_are_loads);
    tcase_add_test(tc, device_memcpy_and_memset_are_counted);
    tcase_add_test(tc, structure_copies_are_counted);
    tcase_add_test(tc, plain_store_beside_atomics_is_a_hazard);
    tcase_add_test(tc, plain_adds_of_blocks_race);
    tcase_add_test(tc, atomic_after_another_blocks_store_races);
    tcase_add_test(tc, plain_read_after_another_blocks_atomic_races);
    tcase_add_test(tc, unfenced_last_block_races);
    tcase_add_test(tc, atomics_do_not_race);
    tcase_add_test(tc, block_scoped_atomics_of_blocks_race);
    tcase_add_test(tc, system_scoped_atomics_do_not_race);
    tcase_add_test(tc, block_scoped_atomics_within_a_block_do_not_race);
    tcase_add_test(tc, stores_alone_do_not_race);
    tcase_add_test(tc, fenced_last_block_does_not_race);
    tcase_add_test(tc, hazard_picture_of_a_missing_first_barrier);
    tcase_add_test(tc, hazard_picture_of_a_missing_second_barrier);
    tcase_add_test(tc, no_hazard_picture_without_a_hazard);
    suite_add_tcase(s, tc);

    tc = tcase_create("bank_conflicts");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, column_store_32_way);
    tcase_add_test(tc, broadcast_and_row_are_conflict_free);
    tcase_add_test(tc, stride_2_is_2_way);
    tcase_add_test(tc, stride_33_is_conflict_free);
    suite_add_tcase(s, tc);

    tc = tcase_create("coalescing");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, uncoalesced_load_32_sectors);
    tcase_add_test(tc, coalesced_load_4_sectors);
    suite_add_tcase(s, tc);

    tc = tcase_create("async_copy");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, async_copy_lands_at_the_wait);
    tcase_add_test(tc, async_copy_without_barrier_is_a_hazard);
    tcase_add_test(tc, async_copy_never_waited_never_lands);
    tcase_add_test(tc, async_copy_zero_fill_reads_nothing);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_addresses");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, out_of_bounds_read_in_slack);
    tcase_add_test(tc, dynamic_shared_past_the_launch_size);
    tcase_add_test(tc, host_pointer_read);
    tcase_add_test(tc, atomic_out_of_bounds_is_found);
    tcase_add_test(tc, device_variables_are_global_memory);
    tcase_add_test(tc, device_heap_blocks_are_global_memory);
    tcase_add_test(tc, copy_loops_are_counted);
    tcase_add_test(tc, uninitialised_shared_read);
    tcase_add_test(tc, every_access_has_a_line);
    suite_add_tcase(s, tc);

    tc = tcase_create("bounds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, spinning_kernel_is_stopped);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(check_mode_suite());
    if (srunner_fork_status(sr) == CK_NOFORK)
        fprintf(stderr, "test_check_mode: CK_FORK=no: these tests need fork mode (SIM_CHECK_OUT and the "
                        "launch counter are per process); expect failures\n");
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
