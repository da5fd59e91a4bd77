// Stage 08-warp-tiling: the last steps towards cuBLAS.
//
// Stage 07 gave every thread a TM x TN block of C in registers. This stage
// keeps that and adds four things, each aimed at what stage 07's counters
// show:
//   - float4 (16-byte) global loads and stores: a quarter of the load
//     instructions for the same bytes;
//   - the A tile stored transposed, As[k][m], so a thread's TM values of A
//     for one k are adjacent and come in float4 reads too; the transposed
//     store would conflict, and a 4-float padding of each row (stage 05)
//     removes that while keeping rows 16-byte aligned;
//   - double buffering: two copies of each tile; the next tile's global
//     loads are issued before this tile's products, so their latency hides
//     behind arithmetic, and one barrier per tile is enough;
//   - warp tiling: each warp owns a WM x WN piece of the block's tile, and
//     its lanes cover that piece in WNITER x WMITER sub-tiles, so the lanes
//     of one warp read few, adjacent shared words (broadcasts, no conflicts).
//
// Any n works: the loads zero-fill outside the matrices and the stores are
// guarded. The 16-byte path needs n % 4 == 0 (every row then starts 16-byte
// aligned); other n use the same kernel with 4-byte accesses.
//
//   make -C labs/08-warp-tiling run N=4096     # build, check against the CPU reference, time it
//   make grade LAB=08-warp-tiling              # grade this stage

#include <stdint.h>

#include "lab.h"

// ---- kernel ----

// Padding of each transposed A row: 4 floats keeps float4 alignment and
// moves the second half of a warp's store 16 banks over (see the README).
#define A_PAD 4

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, bool VEC>
struct warp_tiling {
    static constexpr int WARPS = (BM / WM) * (BN / WN);
    static constexpr int THREADS = 32 * WARPS;
    // Sub-tiles per warp: the warp's 32 lanes, TM x TN results each, cover
    // one WSUBM x WSUBN sub-tile at a time.
    static constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
    static constexpr int WSUBM = WM / WMITER;
    static constexpr int WSUBN = WN / WNITER;
    static constexpr int LANES_ACROSS = WSUBN / TN;
    // float4s per thread in one tile of A (BM x BK) and of B (BK x BN).
    static constexpr int A_LOADS = BM * BK / 4 / THREADS;
    static constexpr int B_LOADS = BK * BN / 4 / THREADS;
    static_assert(WMITER >= 1 && WSUBM == (32 / LANES_ACROSS) * TM, "the lanes must cover the sub-tile");
    static_assert(A_LOADS >= 1 && B_LOADS >= 1 && TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "float4 shapes");
};

// Four elements of row `row`, columns col..col+3, of an n x n matrix; zero
// outside it. With VEC, n % 4 == 0 so the four are all in or all out.
template <bool VEC>
__device__ __forceinline__ float4 load4(const float *M, int n, int row, int col)
{
    if constexpr (VEC) {
        return (row < n && col < n) ? *reinterpret_cast<const float4 *>(&M[(size_t)row * n + col])
                                    : make_float4(0.f, 0.f, 0.f, 0.f);
    } else {
        float v[4];
        for (int i = 0; i < 4; ++i)
            v[i] = (row < n && col + i < n) ? M[(size_t)row * n + col + i] : 0.f;
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, bool VEC>
__global__ void __launch_bounds__((warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>::THREADS))
matmul_warptile_kernel(const float *A, const float *B, float *C, int n)
{
    using S = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>;
    // Two buffers of each tile: the products read one while the next
    // tile is stored into the other.
    __shared__ __attribute__((aligned(16))) float As[2][BK][BM + A_PAD];
    __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    // Which float4 of each tile this thread copies: A row by row, BK / 4
    // float4s per row; B row by row, BN / 4 per row. Consecutive threads
    // take consecutive float4s, so a warp reads whole sectors.
    const int a_row = tid / (BK / 4), a_col = (tid % (BK / 4)) * 4;
    const int b_row = tid / (BN / 4), b_col = (tid % (BN / 4)) * 4;
    constexpr int A_ROW_STEP = S::THREADS / (BK / 4), B_ROW_STEP = S::THREADS / (BN / 4);

    // Where this thread's results lie: its warp's piece of the block tile,
    // then its lane's place inside each sub-tile.
    const int warp = tid / 32, lane = tid % 32;
    const int warp_m = (warp / (BN / WN)) * WM, warp_n = (warp % (BN / WN)) * WN;
    const int lane_m = (lane / S::LANES_ACROSS) * TM, lane_n = (lane % S::LANES_ACROSS) * TN;

    float acc[S::WMITER * TM][WNITER * TN] = {};
    float a_frag[S::WMITER * TM], b_frag[WNITER * TN];
    float4 a_next[S::A_LOADS], b_next[S::B_LOADS];

    // Global -> registers for the tile starting at column (of A) / row (of
    // B) k0; registers -> shared buffer `buf`, A transposed on the way.
    auto fetch = [&](int k0) {
#pragma unroll
        for (int i = 0; i < S::A_LOADS; ++i)
            a_next[i] = load4<VEC>(A, n, block_row + a_row + i * A_ROW_STEP, k0 + a_col);
#pragma unroll
        for (int i = 0; i < S::B_LOADS; ++i)
            b_next[i] = load4<VEC>(B, n, k0 + b_row + i * B_ROW_STEP, block_col + b_col);
    };
    auto stash = [&](int buf) {
#pragma unroll
        for (int i = 0; i < S::A_LOADS; ++i) {
            int m = a_row + i * A_ROW_STEP;
            As[buf][a_col + 0][m] = a_next[i].x;
            As[buf][a_col + 1][m] = a_next[i].y;
            As[buf][a_col + 2][m] = a_next[i].z;
            As[buf][a_col + 3][m] = a_next[i].w;
        }
#pragma unroll
        for (int i = 0; i < S::B_LOADS; ++i)
            *reinterpret_cast<float4 *>(&Bs[buf][b_row + i * B_ROW_STEP][b_col]) = b_next[i];
    };

    const int tiles = (n + BK - 1) / BK;
    fetch(0);
    stash(0);
    __syncthreads();

    for (int t = 0; t < tiles; ++t) {
        const int buf = t % 2;
        // Issued now, used after the products: the loads are in flight
        // while this tile's arithmetic runs.
        if (t + 1 < tiles)
            fetch((t + 1) * BK);

#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int wm = 0; wm < S::WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; i += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(&As[buf][k][warp_m + wm * S::WSUBM + lane_m + i]);
                    a_frag[wm * TM + i + 0] = v.x;
                    a_frag[wm * TM + i + 1] = v.y;
                    a_frag[wm * TM + i + 2] = v.z;
                    a_frag[wm * TM + i + 3] = v.w;
                }
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(&Bs[buf][k][warp_n + wn * S::WSUBN + lane_n + j]);
                    b_frag[wn * TN + j + 0] = v.x;
                    b_frag[wn * TN + j + 1] = v.y;
                    b_frag[wn * TN + j + 2] = v.z;
                    b_frag[wn * TN + j + 3] = v.w;
                }
#pragma unroll
            for (int i = 0; i < S::WMITER * TM; ++i)
#pragma unroll
                for (int j = 0; j < WNITER * TN; ++j)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }

        // The other buffer was last read in the previous tile, before the
        // barrier that ended it, so it is free to overwrite now.
        if (t + 1 < tiles)
            stash(1 - buf);
        // One barrier: the next tile's stores are visible, and nobody
        // starts storing the tile after it before everyone has read this one.
        __syncthreads();
    }

#pragma unroll
    for (int wm = 0; wm < S::WMITER; ++wm)
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = block_row + warp_m + wm * S::WSUBM + lane_m + i;
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const int col = block_col + warp_n + wn * S::WSUBN + lane_n + j;
                    const float *r = &acc[wm * TM + i][wn * TN + j];
                    if constexpr (VEC) {
                        if (row < n && col < n)
                            *reinterpret_cast<float4 *>(&C[(size_t)row * n + col]) = make_float4(r[0], r[1], r[2], r[3]);
                    } else {
                        for (int q = 0; q < 4; ++q)
                            if (row < n && col + q < n)
                                C[(size_t)row * n + col + q] = r[q];
                    }
                }
        }
}

// ---- launcher ----

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN>
static void launch_warptile(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    // 16-byte accesses need every row 16-byte aligned: n % 4 == 0 and
    // aligned base pointers (cudaMalloc gives 256-byte alignment).
    bool vec = n % 4 == 0 && ((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) % 16 == 0;
    if (vec) {
        constexpr int threads = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, true>::THREADS;
        matmul_warptile_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, true><<<grid, threads>>>(A, B, C, n);
    } else {
        constexpr int threads = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, false>::THREADS;
        matmul_warptile_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, false><<<grid, threads>>>(A, B, C, n);
    }
}

#ifndef WARPTILE_NO_MATMUL
void matmul(const float *A, const float *B, float *C, int n)
{
    // The shapes `make tune` measured fastest on an H100 (README: "Choosing
    // the shapes"). Large products: 128 x 128 block tiles, 4 warps of
    // 64 x 64, each lane 8 x 4 in each of 4 sub-tiles (8 x 16 in all).
    // Below 2048 that gives too few blocks to fill the GPU's SMs, so
    // 64 x 64 tiles (4 warps of 32 x 32, 4 x 8 per lane) are used there.
    if (n >= 2048)
        launch_warptile<128, 128, 8, 64, 64, 4, 8, 4>(A, B, C, n);
    else
        launch_warptile<64, 64, 8, 32, 32, 2, 4, 4>(A, B, C, n);
}
#endif
