/* test_simulator, part: Barriers, per-block __shared__ memory, divergent
 * barriers, the warp-level calls and cooperative groups, and a tiled matrix
 * product that needs all of them.
 */
#include "simulator_tests.h"

// ---------------------------------------------------------------- barriers

__global__ void reverse_in_block(const int *in, int *out)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[n - 1 - t];
}

START_TEST(barrier_reverse_1024)
{
    const int blocks = 4, n = 1024;
    std::vector<int> in(blocks * n);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (int)(i * 7 + 3);
    int *d_in = dev_alloc<int>(in.size()), *d_out = dev_alloc<int>(in.size());
    to_device(d_in, in);
    reverse_in_block<<<blocks, n>>>(d_in, d_out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, in.size());
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++)
            ck_assert_msg(out[b * n + t] == in[b * n + n - 1 - t], "block %d thread %d: %d, want %d", b, t,
                          out[b * n + t], in[b * n + n - 1 - t]);
}
END_TEST

// Each phase publishes every thread's value, then each thread folds in a
// neighbour's: a missing or misplaced barrier gives other numbers.
__global__ void multi_phase(int *out, int phases)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x, n = blockDim.x;
    int acc = (int)(t + 1000 * blockIdx.x);
    for (int p = 0; p < phases; p++) {
        s[t] = acc;
        __syncthreads();
        acc = (acc * 5 + s[(t + 1 + p) % n] * 3 + p) % 1000003;
        __syncthreads();
    }
    out[blockIdx.x * n + t] = acc;
}

START_TEST(barrier_multi_phase)
{
    const int blocks = 3, n = 256, phases = 12;
    int *d = dev_alloc<int>(blocks * n);
    multi_phase<<<blocks, n>>>(d, phases);
    CUDA_OK(cudaGetLastError());
    std::vector<int> got = to_host(d, blocks * n);
    for (int b = 0; b < blocks; b++) {
        std::vector<int> acc(n), s(n);
        for (int t = 0; t < n; t++)
            acc[t] = t + 1000 * b;
        for (int p = 0; p < phases; p++) {
            s = acc;
            for (int t = 0; t < n; t++)
                acc[t] = (acc[t] * 5 + s[(t + 1 + p) % n] * 3 + p) % 1000003;
        }
        for (int t = 0; t < n; t++)
            ck_assert_msg(got[b * n + t] == acc[t], "block %d thread %d: %d, want %d", b, t, got[b * n + t],
                          acc[t]);
    }
}
END_TEST

// __syncthreads_count/_and/_or over several phases: each phase's answer is
// that phase's, even while the threads that left first already vote in the
// next one.  Thread t votes true in phase p when (t + p) % 3 == 0.
__global__ void barrier_votes(int *counts, int *ands, int *ors, int phases)
{
    int t = threadIdx.x + blockDim.x * threadIdx.y, threads = blockDim.x * blockDim.y;
    for (int p = 0; p < phases; p++) {
        int count = __syncthreads_count((t + p) % 3 == 0);
        int all = __syncthreads_and(p % 2 == 0 || t < threads);  // true everywhere in even phases, and odd ones
        int any = __syncthreads_or(t == p);                       // true only while a thread t == p exists
        counts[(blockIdx.x * threads + t) * phases + p] = count;
        ands[(blockIdx.x * threads + t) * phases + p] = all && !__syncthreads_and(t != p % threads);
        ors[(blockIdx.x * threads + t) * phases + p] = any;
    }
}

START_TEST(barrier_votes_per_phase)
{
    const int blocks = 3, bx = 16, by = 5, threads = bx * by, phases = 100;
    int *counts = dev_alloc<int>(blocks * threads * phases), *ands = dev_alloc<int>(blocks * threads * phases),
        *ors = dev_alloc<int>(blocks * threads * phases);
    barrier_votes<<<blocks, dim3(bx, by)>>>(counts, ands, ors, phases);
    CUDA_OK(cudaGetLastError());
    std::vector<int> c = to_host(counts, blocks * threads * phases), a = to_host(ands, blocks * threads * phases),
                     o = to_host(ors, blocks * threads * phases);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            for (int p = 0; p < phases; p++) {
                int want = 0, i = (b * threads + t) * phases + p;
                for (int u = 0; u < threads; u++)
                    want += (u + p) % 3 == 0;
                ck_assert_msg(c[i] == want, "block %d thread %d phase %d: count %d, want %d", b, t, p, c[i], want);
                ck_assert_msg(a[i] == 1, "block %d thread %d phase %d: _and wrong", b, t, p);
                ck_assert_msg(o[i] == (p < threads), "block %d thread %d phase %d: _or %d", b, t, p, o[i]);
            }
}
END_TEST

START_TEST(barrier_outside_kernel_is_reported)
{
    stderr_capture cap;
    __syncthreads();  // must return, not crash or hang
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "outside a kernel");
}
END_TEST

// ------------------------------------------------ __shared__ is per block

__global__ void shared_per_block(int *bad, long *os_thread)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    for (int round = 0; round < 4; round++) {
        int mine = (int)blockIdx.x * 4 + round;
        s[t] = mine;
        __syncthreads();
        for (unsigned i = 0; i < blockDim.x; i++)
            if (s[i] != mine)
                atomicAdd(&bad[blockIdx.x], 1);
        __syncthreads();
    }
    if (t == 0)
        os_thread[blockIdx.x] = os_thread_id();
}

static void check_shared_per_block(const char *sim_threads, unsigned max_os_threads)
{
    ck_assert_int_eq(setenv("SIM_THREADS", sim_threads, 1), 0);  // before the first launch
    const int blocks = 512, threads = 64;
    int *bad = dev_alloc<int>(blocks);
    long *tid = dev_alloc<long>(blocks);
    CUDA_OK(cudaMemset(bad, 0, blocks * sizeof(int)));
    shared_per_block<<<blocks, threads>>>(bad, tid);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> h = to_host(bad, blocks);
    for (int b = 0; b < blocks; b++)
        ck_assert_msg(h[b] == 0, "SIM_THREADS=%s: block %d saw another block's shared values %d times",
                      sim_threads, b, h[b]);
    std::vector<long> tids = to_host(tid, blocks);
    std::set<long> distinct(tids.begin(), tids.end());
    ck_assert_msg(distinct.size() <= max_os_threads, "SIM_THREADS=%s, but blocks ran on %zu OS threads",
                  sim_threads, distinct.size());
    if (max_os_threads == 1)
        ck_assert_msg(*distinct.begin() == os_thread_id(), "SIM_THREADS=1: blocks did not run on the launching thread");
}

START_TEST(shared_per_block_2_threads) { check_shared_per_block("2", 2); }
END_TEST

START_TEST(shared_per_block_1_thread) { check_shared_per_block("1", 1); }
END_TEST

START_TEST(shared_per_block_4_threads) { check_shared_per_block("4", 4); }
END_TEST

// ------------------------------------------------------ barrier divergence

__global__ void diverge_half(int *out)
{
    if (threadIdx.x >= 16)
        return;
    __syncthreads();
    out[threadIdx.x] = 1;
}

START_TEST(divergent_barrier_fails_the_launch)
{
    int *out = dev_alloc<int>(32);
    stderr_capture cap;
    diverge_half<<<1, 32>>>(out);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "block (0,0,0)");
    ASSERT_CONTAINS(said, "16 of 32 threads wait at __syncthreads()");
    ASSERT_CONTAINS(said, "16 have already returned");
    CUDA_IS(cudaErrorLaunchFailure, cudaGetLastError());
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());  // sticky
}
END_TEST

__global__ void diverge_in_one_block(int *out, unsigned bx, unsigned by)
{
    if (blockIdx.x == bx && blockIdx.y == by && threadIdx.x >= 40)
        return;
    __syncthreads();
    out[0] = 1;
}

START_TEST(divergent_barrier_names_the_block)
{
    int *out = dev_alloc<int>(1);
    stderr_capture cap;
    diverge_in_one_block<<<dim3(4, 2), 64>>>(out, 3, 1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "block (3,1,0): 40 of 64 threads wait at __syncthreads() while 24 have already returned");
}
END_TEST

// Thread 0 goes round its loop once more than the others.
__global__ void diverge_late(int *out)
{
    int rounds = threadIdx.x == 0 ? 3 : 2;
    for (int r = 0; r < rounds; r++)
        __syncthreads();
    out[threadIdx.x] = rounds;
}

START_TEST(divergent_barrier_in_a_later_phase)
{
    int *out = dev_alloc<int>(32);
    stderr_capture cap;
    diverge_late<<<1, 32>>>(out);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "1 of 32 threads wait at __syncthreads() while 31 have already returned");
}
END_TEST

__global__ void reductions_and_matches(long long *out, int *pred)
{
    unsigned lane = threadIdx.x, full = 0xffffffffu;
    long long *o = out + lane * 9;
    o[0] = __reduce_add_sync(full, lane);
    o[1] = __reduce_min_sync(full, (int)lane - 16);
    o[2] = __reduce_min_sync(full, lane + 3);
    o[3] = __reduce_max_sync(full, (int)lane - 40);
    o[4] = __reduce_and_sync(full, lane | 0x100u) + __reduce_or_sync(full, lane) * 1000;
    o[5] = __reduce_xor_sync(full, 1u << (lane % 4));
    o[6] = __match_any_sync(full, (float)(lane % 4));
    o[7] = __match_all_sync(full, 7.0, &pred[lane * 2]);
    o[8] = __match_all_sync(full, (long long)lane, &pred[lane * 2 + 1]);
}

START_TEST(warp_reductions_and_matches)
{
    long long *d = dev_alloc<long long>(32 * 9);
    int *p = dev_alloc<int>(64);
    reductions_and_matches<<<1, 32>>>(d, p);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<long long> o = to_host(d, 32 * 9);
    std::vector<int> pred = to_host(p, 64);
    for (int lane = 0; lane < 32; lane++) {
        const long long *r = &o[lane * 9];
        ck_assert_int_eq(r[0], 496);
        ck_assert_int_eq(r[1], -16);
        ck_assert_int_eq(r[2], 3);
        ck_assert_int_eq(r[3], -9);
        ck_assert_int_eq(r[4], 0x100 + 31 * 1000);
        ck_assert_int_eq(r[5], 0);  // each of the four bits set by eight lanes
        ck_assert_int_eq(r[6], (long long)(0x11111111u << (lane % 4)));
        ck_assert_int_eq(r[7], (long long)0xffffffffu);
        ck_assert_int_eq(r[8], 0);
        ck_assert_int_eq(pred[lane * 2], 1);
        ck_assert_int_eq(pred[lane * 2 + 1], 0);
    }
}
END_TEST

// The runtime's identity and the device's settings, the special streams,
// pinned and mapped host memory, and the properties a device query prints.

// --------------------------------------------------- tiled matrix product

#define TILE 32

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int row = (int)blockIdx.y * TILE + ty, col = (int)blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        As[ty][tx] = row < n && ac < n ? A[row * n + ac] : 0.0f;
        Bs[ty][tx] = br < n && col < n ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

// Small integers: every product and partial sum is exact, so the result
// must equal the CPU's exactly whatever the order of summation.
static void check_matmul(int n)
{
    std::vector<float> A((size_t)n * n), B((size_t)n * n), want((size_t)n * n, 0.0f);
    unsigned seed = 12345u + (unsigned)n;
    for (auto *m : {&A, &B})
        for (float &x : *m) {
            seed = seed * 1103515245u + 12345u;
            x = (float)((int)(seed >> 16) % 9 - 4);
        }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                want[(size_t)i * n + j] += A[(size_t)i * n + k] * B[(size_t)k * n + j];
    float *dA = dev_alloc<float>(A.size()), *dB = dev_alloc<float>(B.size()), *dC = dev_alloc<float>(A.size());
    to_device(dA, A);
    to_device(dB, B);
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> got = to_host(dC, A.size());
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            ck_assert_msg(got[(size_t)i * n + j] == want[(size_t)i * n + j], "n=%d: C[%d][%d] = %g, want %g", n, i,
                          j, got[(size_t)i * n + j], want[(size_t)i * n + j]);
}

// ------------------------------------------------------------------ warp-level calls

// Each lane writes what five shuffles gave it; the host works out the same
// from CUDA's rules (a segment of `width` lanes; a source past the segment
// gives the lane its own value).
__global__ void shuffles(int *out)
{
    int t = threadIdx.x, v = t * 10;
    out[t * 6 + 0] = __shfl_sync(0xffffffffu, v, 3);
    out[t * 6 + 1] = __shfl_up_sync(0xffffffffu, v, 2);
    out[t * 6 + 2] = __shfl_down_sync(0xffffffffu, v, 5);
    out[t * 6 + 3] = __shfl_xor_sync(0xffffffffu, v, 1);
    out[t * 6 + 4] = __shfl_down_sync(0xffffffffu, v, 4, 8);
    out[t * 6 + 5] = __shfl_xor_sync(0xffffffffu, v, 8, 8);  // an earlier segment's value, or a later one's: its own
}

START_TEST(warp_shuffles_follow_cuda_rules)
{
    const int n = 64;
    int *d = dev_alloc<int>(n * 6);
    shuffles<<<1, n>>>(d);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d, n * 6);
    for (int t = 0; t < n; t++) {
        int lane = t % 32, warp = t - lane, own = t * 10;
        int want[6] = {(warp + 3) * 10,
                       lane >= 2 ? own - 20 : own,
                       lane + 5 < 32 ? own + 50 : own,
                       (t ^ 1) * 10,
                       lane % 8 + 4 < 8 ? own + 40 : own,
                       lane % 16 >= 8 ? (t ^ 8) * 10 : own};
        for (int k = 0; k < 6; k++)
            ck_assert_msg(out[t * 6 + k] == want[k], "thread %d, shuffle %d: %d, want %d", t, k, out[t * 6 + k],
                          want[k]);
    }
}
END_TEST

// Votes, doubles, and two halves of a warp meeting apart (disjoint masks).
__global__ void votes(unsigned *out, double *sums)
{
    int lane = threadIdx.x % 32;
    out[threadIdx.x * 4 + 0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
    out[threadIdx.x * 4 + 1] = __any_sync(0xffffffffu, lane == 7);
    out[threadIdx.x * 4 + 2] = __all_sync(0xffffffffu, lane < 31);
    out[threadIdx.x * 4 + 3] = __all_sync(0xffffffffu, 1);
    double v = lane + 0.5;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    for (int offset = 8; offset > 0; offset /= 2)
        v += __shfl_xor_sync(half, v, offset);
    sums[threadIdx.x] = v;
}

START_TEST(warp_votes_and_half_warps)
{
    unsigned *d = dev_alloc<unsigned>(32 * 4);
    double *s = dev_alloc<double>(32);
    votes<<<1, 32>>>(d, s);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned> out = to_host(d, 32 * 4);
    std::vector<double> sums = to_host(s, 32);
    unsigned thirds = 0;
    for (int l = 0; l < 32; l += 3)
        thirds |= 1u << l;
    for (int t = 0; t < 32; t++) {
        ck_assert_uint_eq(out[t * 4 + 0], thirds);
        ck_assert_uint_eq(out[t * 4 + 1], 1);
        ck_assert_uint_eq(out[t * 4 + 2], 0);
        ck_assert_uint_eq(out[t * 4 + 3], 1);
        double want = t < 16 ? 16 * 7.5 + 8 : 16 * 23.5 + 8;  // the sum of (lane + 0.5) over its half
        ck_assert_msg(sums[t] == want, "lane %d: %g, want %g", t, sums[t], want);
    }
}
END_TEST

// A block-wide sum: per-warp shuffle reductions, then warp 0 adds the
// warps' totals from shared memory after a barrier.
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int totals[32];
    int v = in[threadIdx.x], lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0)
        totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)blockDim.x / 32 ? totals[lane] : 0;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (lane == 0)
            *out = v;
    }
}

START_TEST(warp_reduction_beside_barriers)
{
    const int n = 1024;
    std::vector<int> in(n);
    long want = 0;
    for (int i = 0; i < n; i++)
        want += in[i] = i * 7 % 13;
    int *d_in = dev_alloc<int>(n), *d_out = dev_alloc<int>(1);
    CUDA_OK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_sum<<<1, n>>>(d_in, d_out);
    CUDA_OK(cudaDeviceSynchronize());
    ck_assert_int_eq(to_host(d_out, 1)[0], want);
}
END_TEST

// Lanes that have returned take no part: a full mask meets without them.
__global__ void after_returns(unsigned *out, int reader)
{
    int lane = threadIdx.x % 32;
    if (lane >= 20)
        return;
    out[lane * 2] = __ballot_sync(0xffffffffu, 1);
    out[lane * 2 + 1] = __any_sync(0xffffffffu, lane == 19);
    if (reader)
        out[lane] = __shfl_down_sync(0xffffffffu, lane, 1);  // lane 19 reads lane 20, which has returned
}

START_TEST(warp_calls_leave_out_returned_lanes)
{
    unsigned *d = dev_alloc<unsigned>(64);
    after_returns<<<1, 32>>>(d, 0);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned> out = to_host(d, 64);
    for (int l = 0; l < 20; l++) {
        ck_assert_uint_eq(out[l * 2], 0xfffffu);
        ck_assert_uint_eq(out[l * 2 + 1], 1);
    }
    stderr_capture cap;
    after_returns<<<1, 32>>>(d, 1);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "lane 19 read lane 20's value with __shfl_down_sync, but lane 20 takes no part");
}
END_TEST

// What CUDA leaves undefined, or a GPU would hang on, fails the launch.
__global__ void warp_misuse(int *out, int how)
{
    int lane = threadIdx.x % 32;
    if (how == 0)
        out[lane] = __shfl_sync(0x0000ffffu, lane, 0);  // lanes 16-31 are not in their own mask
    else if (how == 1) {
        if (lane < 16)
            out[lane] = __shfl_down_sync(0xffffffffu, lane, 1);
        __syncthreads();  // lanes 16-31 wait here, not at the shuffle
    } else if (how == 2)
        out[lane] = lane < 16 ? __shfl_down_sync(0xffffffffu, lane, 1) : (int)__ballot_sync(0xffffffffu, 1);
}

START_TEST(warp_misuse_fails_the_launch)
{
    const char *said_for[] = {"lane 16 called __shfl_sync with mask 0x0000ffff, which leaves it out",
                              "waits at __shfl_down_sync (mask 0xffffffff) for lanes of its mask that wait at "
                              "__syncthreads() instead",
                              "lanes of warp 0 met at different warp-level calls"};
    for (int how = 0; how < 3; how++) {
        int *d = dev_alloc<int>(32);  // a reset frees it: one each time
        stderr_capture cap;
        warp_misuse<<<1, 32>>>(d, how);
        std::string said = cap.finish();
        CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
        ASSERT_CONTAINS(said, said_for[how]);
        stderr_capture reset_cap;
        CUDA_OK(cudaDeviceReset());
        reset_cap.finish();
    }
}
END_TEST

// ------------------------------------------------------- cooperative groups

namespace cg = cooperative_groups;

// What each thread of a (8, 4, 2) block learns from its block and its
// tiles, in `fields` ints per thread, by its rank in the block.
enum { cg_fields = 15 };
__global__ void group_facts(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    auto warp = cg::tiled_partition<32>(block);
    cg::thread_group sixteen = cg::tiled_partition(block, 16);
    // Each block its own facts: blocks run on several OS threads, in no set order.
    int rank = (int)block.thread_rank(), *o = out + (block.group_index().x * 64 + rank) * cg_fields;
    o[0] = (int)block.size();
    o[1] = (int)(block.thread_index().x + 8 * (block.thread_index().y + 4 * block.thread_index().z));
    o[2] = (int)eight.thread_rank() * 100 + (int)eight.meta_group_rank() * 10 + (int)eight.meta_group_size();
    o[3] = eight.shfl(rank, 3);
    o[4] = eight.shfl_down(rank, 1);
    o[5] = eight.shfl_xor(rank, 4);
    o[6] = (int)eight.ballot(eight.thread_rank() % 2);
    o[7] = eight.any(eight.thread_rank() == 5) * 10 + eight.all(eight.thread_rank() < 7);
    o[8] = cg::reduce(eight, rank, cg::plus<int>());
    o[9] = cg::reduce(warp, rank, cg::greater<int>());
    o[10] = cg::reduce(warp, rank, cg::less<int>());
    o[11] = (int)sixteen.thread_rank() * 100 + (int)sixteen.size();
    o[12] = (int)cg::group_size(warp) * 100 + (int)cg::thread_rank(warp);
    sixteen.sync();
    warp.sync();
    cg::sync(block);
    o[13] = (int)block.group_index().x;
    // More than 8 bytes: shuffled in pieces, as CUDA's tiles do.
    float4 v = eight.shfl_down(make_float4(rank, rank + 1, rank + 2, rank + 3), 2);
    o[14] = (int)(v.x * 1000 + v.w);
}

START_TEST(cooperative_groups_ranks_tiles_and_reduce)
{
    int *d = dev_alloc<int>(3 * 64 * cg_fields);
    group_facts<<<dim3(3), dim3(8, 4, 2)>>>(d);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> o = to_host(d, 3 * 64 * cg_fields);
    for (int b = 0; b < 3; b++) {
        for (int r = 0; r < 64; r++) {
            const int *f = &o[(b * 64 + r) * cg_fields];
            int first8 = r / 8 * 8, first32 = r / 32 * 32;
            int want[cg_fields] = {64,
                                   r,
                                   r % 8 * 100 + r / 8 * 10 + 8,
                                   first8 + 3,
                                   r % 8 == 7 ? r : r + 1,   // the tile's last lane keeps its own value
                                   r ^ 4,
                                   0xAA,
                                   10,  // any: 1; all: 0 (rank 7 is not < 7)
                                   8 * first8 + 28,
                                   first32 + 31,
                                   first32,
                                   r % 16 * 100 + 16,
                                   32 * 100 + r % 32,
                                   b,
                                   r % 8 >= 6 ? r * 1000 + r + 3 : (r + 2) * 1000 + r + 5};
            for (int i = 0; i < cg_fields; i++)
                ck_assert_msg(f[i] == want[i], "block %d, thread %d, fact %d: %d, want %d", b, r, i, f[i], want[i]);
        }
    }
}
END_TEST

// block.sync() is the block's barrier: values pass between warps through
// shared memory, and a block.sync() some threads skip is the same
// divergent barrier __syncthreads() would be.
__global__ void block_sync_exchange(int *out, int skip)
{
    __shared__ int slots[128];
    cg::thread_block block = cg::this_thread_block();
    int rank = (int)block.thread_rank();
    slots[rank] = rank * 3;
    if (rank >= skip)
        return;
    block.sync();
    out[rank] = slots[127 - rank];
}

START_TEST(cooperative_groups_block_sync_is_a_barrier)
{
    int *d = dev_alloc<int>(128);
    block_sync_exchange<<<1, 128>>>(d, 128);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> o = to_host(d, 128);
    for (int r = 0; r < 128; r++)
        ck_assert_int_eq(o[r], (127 - r) * 3);
    stderr_capture cap;
    block_sync_exchange<<<1, 128>>>(d, 100);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "have already returned");
}
END_TEST

// A tile's reduce needs every lane of the tile: one that has returned
// leaves its partner's shuffle undefined, which fails the launch.
__global__ void tile_reduce_missing_lane(int *out)
{
    auto four = cg::tiled_partition<4>(cg::this_thread_block());
    if (threadIdx.x == 2)
        return;
    out[threadIdx.x] = cg::reduce(four, (int)threadIdx.x, cg::plus<int>());
}

START_TEST(cooperative_groups_tile_with_a_lane_missing_fails)
{
    int *d = dev_alloc<int>(32);
    stderr_capture cap;
    tile_reduce_missing_lane<<<1, 32>>>(d);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchFailure, cudaDeviceSynchronize());
    ASSERT_CONTAINS(said, "takes no part in the call");
}
END_TEST

END_TEST

START_TEST(tiled_matmul_100) { check_matmul(100); }
END_TEST

START_TEST(tiled_matmul_257) { check_matmul(257); }
END_TEST

void add_barrier_and_warp_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "syncthreads", 10);
    tcase_add_test(tc, barrier_reverse_1024);
    tcase_add_test(tc, barrier_multi_phase);
    tcase_add_test(tc, barrier_votes_per_phase);
    tcase_add_test(tc, barrier_outside_kernel_is_reported);

    tc = tcase(s, "shared_per_block", 10);
    tcase_add_test(tc, shared_per_block_2_threads);
    tcase_add_test(tc, shared_per_block_1_thread);
    tcase_add_test(tc, shared_per_block_4_threads);

    tc = tcase(s, "barrier_divergence", 5);  // a hang is a failure, not a stuck test run
    tcase_add_test(tc, divergent_barrier_fails_the_launch);
    tcase_add_test(tc, divergent_barrier_names_the_block);
    tcase_add_test(tc, divergent_barrier_in_a_later_phase);

    tc = tcase(s, "warp_calls", 10);
    tcase_add_test(tc, warp_shuffles_follow_cuda_rules);
    tcase_add_test(tc, warp_votes_and_half_warps);
    tcase_add_test(tc, warp_reductions_and_matches);
    tcase_add_test(tc, warp_reduction_beside_barriers);
    tcase_add_test(tc, warp_calls_leave_out_returned_lanes);
    tcase_add_test(tc, warp_misuse_fails_the_launch);

    tc = tcase(s, "cooperative_groups", 10);
    tcase_add_test(tc, cooperative_groups_ranks_tiles_and_reduce);
    tcase_add_test(tc, cooperative_groups_block_sync_is_a_barrier);
    tcase_add_test(tc, cooperative_groups_tile_with_a_lane_missing_fails);

    tc = tcase(s, "tiled_matmul", 20);
    tcase_add_test(tc, tiled_matmul_100);
    tcase_add_test(tc, tiled_matmul_257);
}
