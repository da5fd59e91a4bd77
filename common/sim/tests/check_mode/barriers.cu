/* test_check_mode, part: barriers: the hazards of a tiled product with a
 * barrier missing, and their pictures; a barrier in divergent branches; a
 * shared word read before any thread wrote it; every access named by its
 * line.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

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

// Launches a TILE×TILE-block matmul kernel on n×n inputs; returns what the
// checker said.
template <void (*Kernel)(const float *, const float *, float *, int)>
static check_report run_tile_grid(int n)
{
    float *A = dev_floats((size_t)n * n), *B = dev_floats((size_t)n * n, 2.0f), *C = dev_floats((size_t)n * n);
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    checked_run run;
    Kernel<<<grid, block>>>(A, B, C, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    return run.finish();
}

template <bool FirstBarrier, bool SecondBarrier>
static check_report run_tiled(int n) { return run_tile_grid<tiled_matmul<FirstBarrier, SecondBarrier>>(n); }

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

// ----------------------------------------------------- double buffering

// The tiled product with two buffers of each tile and one barrier per
// tile: the next tile is stored in the stretch that reads this one.  With
// StrayStore, one buffer and two barriers per tile instead, and a word
// written beside the products that nothing reads.
template <bool TwoBuffers, bool StrayStore>
__global__ void buffered_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    __shared__ float stray;
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int row = (int)blockIdx.y * TILE + ty, col = (int)blockIdx.x * TILE + tx;
    int tiles = (n + TILE - 1) / TILE;
    auto store = [&](int t, int buf) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        As[buf][ty][tx] = row < n && ac < n ? A[row * n + ac] : 0.0f;
        Bs[buf][ty][tx] = br < n && col < n ? B[br * n + col] : 0.0f;
    };
    float acc = 0.0f;
    if (TwoBuffers)
        store(0, 0);
    for (int t = 0; t < tiles; t++) {
        int buf = TwoBuffers ? t % 2 : 0;
        if (!TwoBuffers)
            store(t, 0);
        __syncthreads();
        if (TwoBuffers && t + 1 < tiles)
            store(t + 1, 1 - buf);
        for (int k = 0; k < TILE; k++)
            acc += As[buf][ty][k] * Bs[buf][k][tx];
        if (StrayStore && tx == 0 && ty == 0)
            stray = acc;
        (void)stray;  // never read: no load, and no warning
        if (!TwoBuffers)
            __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

template <bool TwoBuffers, bool StrayStore>
static check_report run_buffered(int n) { return run_tile_grid<buffered_matmul<TwoBuffers, StrayStore>>(n); }

// n = 128: 4 tiles, 16 blocks.  Two buffers: 5 stretches a block use
// shared memory (the prologue's store; three that read one tile and store
// the next; the last tile's reads, up to the block's end), and the middle
// three each read what an earlier stretch stored and store what a later
// one reads.
START_TEST(double_buffering_counted)
{
    check_report r = run_buffered<true, false>(128);
    EXPECT_NO_FINDINGS(r);
    EXPECT(r, "shared_phases", 5 * 16);
    EXPECT(r, "overlapped_phases", 3 * 16);
}
END_TEST

// One buffer, two barriers per tile: stores and reads never share a
// stretch.  A store beside the products that nothing reads later makes a
// stretch store and read, but hands nothing on: still no double buffering.
START_TEST(single_buffer_not_counted)
{
    check_report r = run_buffered<false, false>(128);
    EXPECT_NO_FINDINGS(r);
    EXPECT(r, "shared_phases", 8 * 16);
    EXPECT(r, "overlapped_phases", 0);
}
END_TEST

START_TEST(stray_store_not_counted)
{
    check_report r = run_buffered<false, true>(128);
    EXPECT_NO_FINDINGS(r);
    EXPECT(r, "shared_phases", 8 * 16);
    EXPECT(r, "overlapped_phases", 0);
}
END_TEST

void add_barrier_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "hazards", 20);
    tcase_add_test(tc, tiled_correct_counts);
    tcase_add_test(tc, tiled_missing_first_barrier);
    tcase_add_test(tc, tiled_missing_second_barrier);
    tcase_add_loop_test(tc, findings_name_the_earliest_block, 0, 6);
    tcase_add_test(tc, divergent_barrier);
    tcase_add_test(tc, divergent_barrier_names_the_kernel_lines);
    tcase_add_test(tc, hazard_picture_of_a_missing_first_barrier);
    tcase_add_test(tc, hazard_picture_of_a_missing_second_barrier);
    tcase_add_test(tc, no_hazard_picture_without_a_hazard);

    tc = tcase(s, "double_buffering", 20);
    tcase_add_test(tc, double_buffering_counted);
    tcase_add_test(tc, single_buffer_not_counted);
    tcase_add_test(tc, stray_store_not_counted);

    tc = tcase(s, "uninitialised_shared", 10);
    tcase_add_test(tc, uninitialised_shared_read);
    tcase_add_test(tc, every_access_has_a_line);
}
