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
//   make -C labs/08-warp-tiling run N=1000     # build, check against the CPU reference, time it
//   make -C labs/08-warp-tiling check          # the simulator's counts: bytes per access, conflicts, phases
//   make grade LAB=08-warp-tiling              # grade this stage
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails. Around that, it is a working warp-tiled kernel without the four
// improvements: 4-byte loads only, no padding, 4-byte shared reads, one
// buffer and two barriers per tile. Work through the TODOs in order;
// README.md in this folder explains each one, and `make check` shows each
// one's effect.

#include <stdint.h>

#include "lab.h"

// ---- kernel ----

// TODO 3: Pad each row of the transposed A tile so that the stores in
//         stash() have no bank conflicts, keeping every row's start 16-byte
//         aligned for the float4 reads of TODO 4 (README: "The transposed
//         tile, again"). `make check` shows the conflict before and after.
#define A_PAD 0

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
    // TODO 2: When VEC is true, load the four floats with ONE 16-byte load:
    //         read a float4 through a reinterpret_cast of &M[row * n + col],
    //         or return zeros when the row or col is outside the matrix
    //         (README: "16 bytes at a time"). Keep the 4-byte code below for
    //         VEC false.
    float v[4];
    for (int i = 0; i < 4; ++i)
        v[i] = (row < n && col + i < n) ? M[(size_t)row * n + col + i] : 0.f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, bool VEC>
__global__ void __launch_bounds__((warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>::THREADS))
matmul_warptile_kernel(const float *A, const float *B, float *C, int n)
{
    using S = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>;
    // Two buffers of each tile (TODO 5 uses the second): the products read
    // one while the next tile is stored into the other.
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

    // TODO 5: Double-buffer this loop (README: "Double buffering"):
    //           - fetch and stash tile 0 into buffer 0, and one barrier,
    //             before the loop;
    //           - in the loop, read buffer t % 2; issue fetch() of tile t + 1
    //             BEFORE the products, and stash() it into the other buffer
    //             AFTER them;
    //           - end each tile with ONE barrier, and say in a comment why
    //             the second one is no longer needed.
    const int tiles = (n + BK - 1) / BK;
    for (int t = 0; t < tiles; ++t) {
        const int buf = 0;
        fetch(t * BK);
        stash(buf);
        __syncthreads();

        // TODO 4: Read the fragments below as float4: four adjacent floats of
        //         As (and of Bs) in one 16-byte shared read, copied into
        //         a_frag / b_frag (README: "16 bytes at a time"). As[buf][k]
        //         rows must be 16-byte aligned: that is why A_PAD is a
        //         multiple of 4.
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int wm = 0; wm < S::WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; ++i)
                    a_frag[wm * TM + i] = As[buf][k][warp_m + wm * S::WSUBM + lane_m + i];
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    b_frag[wn * TN + j] = Bs[buf][k][warp_n + wn * S::WSUBN + lane_n + j];
#pragma unroll
            for (int i = 0; i < S::WMITER * TM; ++i)
#pragma unroll
                for (int j = 0; j < WNITER * TN; ++j)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }

        __syncthreads();
    }

    // TODO 1: Store acc into C. Element acc[wm * TM + i][wn * TN + j] is
    //         C[row][col] with
    //           row = block_row + warp_m + wm * S::WSUBM + lane_m + i,
    //           col = block_col + warp_n + wn * S::WSUBN + lane_n + j,
    //         for wm < S::WMITER, i < TM, wn < WNITER, j < TN; skip elements
    //         outside the n x n matrix. Then, for VEC, store each four
    //         adjacent columns (j a multiple of 4) with one float4 store
    //         (README: "Edges and the 16-byte path").
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
