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
//     removes that while keeping rows 16-byte aligned, with a swizzle
//     (a_swizzle) for what padding cannot fix at BK = 16;
//   - a pipeline of tiles in flight: the B tiles of the next STAGES - 1
//     steps are copied global -> shared with cp.async (no registers on the
//     way), and the next A tile is loaded into registers while this tile's
//     products run; one barrier per tile is enough;
//   - warp tiling: each warp owns a WM x WN piece of the block's tile, and
//     its lanes cover that piece in WNITER x WMITER sub-tiles, so the lanes
//     of one warp read few, adjacent shared words (broadcasts, no conflicts).
// Its launcher asks the device before it takes a shape that needs more than
// the 48 KiB of shared memory every GPU gives a block without asking.
//
// Any n works: the loads zero-fill outside the matrices and the stores are
// guarded. The 16-byte path needs n % 4 == 0 (every row then starts 16-byte
// aligned); other n use the same kernel with 4-byte accesses.
//
//   make -C labs/08-warp-tiling run N=4096     # build, check against the CPU reference, time it
//   make grade LAB=08-warp-tiling              # grade this stage

#include <cuda_pipeline_primitives.h>
#include <stdint.h>

#include "lab.h"

// ---- kernel ----

// Padding of each transposed A row: 4 floats keeps float4 alignment and
// moves the second half of a warp's store 16 banks over (see the README).
#define A_PAD 4

// Where row m of A lands in row k of the transposed tile. With BK = 16 four
// threads copy one row of A, at columns 0, 4, 8 and 12; padding puts those
// 0, 16, 0 and 16 banks apart, so columns 0 and 8 (and 4 and 12) would
// collide whatever the padding. Flipping bit 3 of m in columns 8..15 moves
// their rows 8 words over, into free banks (see the README). Bit 3 keeps
// float4s whole, and a warp's fragment reads at one k all move together, so
// they stay conflict-free.
__device__ __forceinline__ int a_swizzle(int k, int m) { return m ^ (k & 8); }

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
    // Shared memory for `stages` copies of both tiles, A's rows padded.
    static constexpr size_t bytes(int stages) { return sizeof(float) * stages * BK * (BM + A_PAD + BN); }
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

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES, bool VEC>
__global__ void __launch_bounds__((warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>::THREADS))
matmul_warptile_kernel(const float *A, const float *B, float *C, int n)
{
    using S = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>;
    static_assert(STAGES >= 2, "one stage is read while the next is filled");
    static_assert(BK == 8 || BK == 16, "a_swizzle separates two groups of 8 columns");
    // STAGES copies of each tile: the products read one while the tiles of
    // the next steps arrive in the others. Dynamic shared memory, sized by
    // the launcher (S::bytes): over 48 KiB, a block may have it only this
    // way, and the large shape needs 49 664 bytes.
    extern __shared__ float4 tile_memory[];
    auto As = reinterpret_cast<float (*)[BK][BM + A_PAD]>(tile_memory);
    auto Bs = reinterpret_cast<float (*)[BK][BN]>(&As[STAGES][0][0]);

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
    float4 a_next[S::A_LOADS];

    // A: global -> registers for the tile starting at column k0, then
    // registers -> stage `st`, transposed on the way. A copy engine moves
    // whole 4-, 8- or 16-byte pieces, so it cannot transpose float4s; A
    // takes the path through registers that stage 07 used.
    auto fetch_a = [&](int k0) {
#pragma unroll
        for (int i = 0; i < S::A_LOADS; ++i)
            a_next[i] = load4<VEC>(A, n, block_row + a_row + i * A_ROW_STEP, k0 + a_col);
    };
    auto stash_a = [&](int st) {
#pragma unroll
        for (int i = 0; i < S::A_LOADS; ++i) {
            const int m = a_row + i * A_ROW_STEP;
            As[st][a_col + 0][a_swizzle(a_col, m)] = a_next[i].x;
            As[st][a_col + 1][a_swizzle(a_col, m)] = a_next[i].y;
            As[st][a_col + 2][a_swizzle(a_col, m)] = a_next[i].z;
            As[st][a_col + 3][a_swizzle(a_col, m)] = a_next[i].w;
        }
    };
    // B: global -> stage `st` directly, with asynchronous copies (cp.async).
    // The copy of a float4 outside the matrix reads nothing and stores
    // zeros (the last argument: bytes to zero-fill); its source pointer
    // must still be a valid one, so it is B itself.
    auto copy_b = [&](int st, int k0) {
        if constexpr (VEC) {
#pragma unroll
            for (int i = 0; i < S::B_LOADS; ++i) {
                const int r = b_row + i * B_ROW_STEP, row = k0 + r, col = block_col + b_col;
                const bool in = row < n && col < n;
                __pipeline_memcpy_async(&Bs[st][r][b_col], in ? &B[(size_t)row * n + col] : B, 16, in ? 0 : 16);
            }
        } else {
            // 4-byte copies: consecutive threads take consecutive words, so
            // a warp's stores fill 32 banks once each.
#pragma unroll
            for (int i = 0; i < 4 * S::B_LOADS; ++i) {
                const int e = tid + i * S::THREADS, r = e / BN, c = e % BN;
                const int row = k0 + r, col = block_col + c;
                const bool in = row < n && col < n;
                __pipeline_memcpy_async(&Bs[st][r][c], in ? &B[(size_t)row * n + col] : B, 4, in ? 0 : 4);
            }
        }
    };

    const int tiles = (n + BK - 1) / BK;
    // Fill the pipeline: A's first tile, B's first STAGES - 1 tiles, one
    // commit (a group of copies) per tile, empty ones past the last tile, so
    // "all but the last STAGES - 2 groups" is always "up to this tile".
    fetch_a(0);
    stash_a(0);
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            copy_b(s, s * BK);
        __pipeline_commit();
    }

    for (int t = 0; t < tiles; ++t) {
        const int st = t % STAGES;
        // This thread's copies of tile t have landed; after the barrier
        // everyone's have, and tile t's A (stored last step) is visible.
        // The barrier also means every thread is done with step t - 1, so
        // its stage, (t + STAGES - 1) % STAGES, can be refilled.
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        const int ahead = t + STAGES - 1;
        if (ahead < tiles)
            copy_b(ahead % STAGES, ahead * BK);
        __pipeline_commit();
        // Issued now, used after the products: the loads are in flight
        // while this tile's arithmetic runs.
        if (t + 1 < tiles)
            fetch_a((t + 1) * BK);

#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int wm = 0; wm < S::WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; i += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(
                        &As[st][k][a_swizzle(k, warp_m + wm * S::WSUBM + lane_m + i)]);
                    a_frag[wm * TM + i + 0] = v.x;
                    a_frag[wm * TM + i + 1] = v.y;
                    a_frag[wm * TM + i + 2] = v.z;
                    a_frag[wm * TM + i + 3] = v.w;
                }
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(&Bs[st][k][warp_n + wn * S::WSUBN + lane_n + j]);
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

        // The next step's stage was last read STAGES - 1 steps ago, before
        // this step's barrier, so it is free to overwrite now.
        if (t + 1 < tiles)
            stash_a((t + 1) % STAGES);
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

// One shape, one access width: the grid, the block and the shared memory
// the kernel asks for.
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES, bool VEC>
static void launch_warptile_kernel(const float *A, const float *B, float *C, int n)
{
    using S = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>;
    constexpr size_t bytes = S::bytes(STAGES);
    auto kernel = matmul_warptile_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, VEC>;
    // Over 48 KiB, a kernel must first be allowed that much (up to the
    // device's sharedMemPerBlockOptin, `make query`). Where the device has
    // less, the launch fails and the caller's error check says so.
    if constexpr (bytes > 48 * 1024)
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    kernel<<<grid, S::THREADS, bytes>>>(A, B, C, n);
}

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES>
static void launch_warptile(const float *A, const float *B, float *C, int n)
{
    // 16-byte accesses need every row 16-byte aligned: n % 4 == 0 and
    // aligned base pointers (cudaMalloc gives 256-byte alignment).
    bool vec = n % 4 == 0 && ((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) % 16 == 0;
    if (vec)
        launch_warptile_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, true>(A, B, C, n);
    else
        launch_warptile_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, false>(A, B, C, n);
}

#ifndef WARPTILE_NO_MATMUL
// Whether the device lets a block have `bytes` of shared memory once its
// kernel opts in (cudaFuncSetAttribute): 227 KiB on an H200, 48 KiB on a
// GPU of compute capability 6.x (README: "Asking the device").
static bool device_offers(size_t bytes)
{
    int device = 0, offered = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&offered, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
        return false;
    return (size_t)offered >= bytes;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    // The shapes `make tune` measured fastest on an H200 (README: "Choosing
    // the shapes"). Large products: 256 x 128 x 16 block tiles, 8 warps of
    // 64 x 64, each lane 8 x 4 in each of 4 sub-tiles (8 x 16 in all), 2
    // stages: 49 664 bytes of shared memory, just over the 48 KiB a block
    // gets without asking. Below 2048 that gives too few blocks to fill the
    // GPU's SMs, so 64 x 64 x 16 tiles (4 warps of 32 x 32, 4 x 8 per lane)
    // with 4 stages are used there, and at every n on a device that does
    // not offer a block the large shape's bytes.
    constexpr size_t large_bytes = warp_tiling<256, 128, 16, 64, 64, 4, 8, 4, true>::bytes(2);
    if (n >= 2048 && device_offers(large_bytes))
        launch_warptile<256, 128, 16, 64, 64, 4, 8, 4, 2>(A, B, C, n);
    else
        launch_warptile<64, 64, 16, 32, 32, 2, 4, 4, 4>(A, B, C, n);
}
#endif
