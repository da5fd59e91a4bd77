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
//     with, at BK = 16, an XOR swizzle (stage 06) removes that while keeping
//     rows 16-byte aligned;
//   - a pipeline of tiles in flight: the B tiles of the next STAGES - 1
//     steps are copied global -> shared with cp.async (no registers on the
//     way), and the next A tile is loaded into registers while this tile's
//     products run; one barrier per tile is enough;
//   - warp tiling: each warp owns a WM x WN piece of the block's tile, and
//     its lanes cover that piece in WNITER x WMITER sub-tiles, so the lanes
//     of one warp read few, adjacent shared words (broadcasts; with float4
//     reads and the lanes in the README's order, no conflicts).
//
// Any n works: the loads zero-fill outside the matrices and the stores are
// guarded. The 16-byte path needs n % 4 == 0 (every row then starts 16-byte
// aligned); other n use the same kernel with 4-byte accesses.
//
//   make -C labs/08-warp-tiling run N=1000     # build, check against the CPU reference, time it
//   make -C labs/08-warp-tiling check          # the simulator's counts: bytes per access, conflicts, phases
//   make grade LAB=08-warp-tiling              # grade this stage
//
// As shipped, this file compiles and runs but places every thread's
// results in the same spot and never writes C, so the check fails. Around
// that, it is a working kernel without the improvements: no warp tile
// (TODO 1), 4-byte loads only, no padding or swizzle, 4-byte shared
// reads, and one stage of each tile, loaded and stored by the same step
// between two barriers; and its launcher takes the large shape without
// asking the device whether a block may have that much shared memory.
// Work through the TODOs in order; README.md in this folder explains each
// one, and `make check` shows the effect of TODOs 2 to 5, and of TODO 1's
// lane order once TODO 4 is done.

#include <cuda_pipeline_primitives.h>
#include <stdint.h>

#include "lab.h"

// ---- kernel ----

// TODO 3: Make the stores in stash_a() free of bank conflicts, keeping
//         every row's start 16-byte aligned for the float4 reads of TODO 4
//         (README: "The transposed tile, again"). Two parts:
//           - A_PAD: pad each row of the transposed A tile. This separates
//             the threads that copy columns 0 and 4 of a row of A;
//           - a_swizzle(k, m): where row m of A lands in row k of the
//             transposed tile. With BK = 16 four threads copy one row of A,
//             at columns 0, 4, 8 and 12, and columns 8 apart share a bank
//             whatever the padding. Return m with bit 3 flipped (m ^ 8) when
//             k is in 8..15, and m itself when k is in 0..7: that moves
//             columns 8..15 eight words over, and keeps float4s whole.
//             stash_a() and the fragment reads already go through it.
//         `make check` shows the conflicts before, after the padding alone,
//         and after both.
#define A_PAD 0

__device__ __forceinline__ int a_swizzle(int k, int m) { return m; }

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

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES, bool VEC>
__global__ void __launch_bounds__((warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>::THREADS))
matmul_warptile_kernel(const float *A, const float *B, float *C, int n)
{
    using S = warp_tiling<BM, BN, BK, WM, WN, WNITER, TM, TN, VEC>;
    static_assert(STAGES >= 2, "one stage is read while the next is filled");
    static_assert(BK == 8 || BK == 16, "a_swizzle separates two groups of 8 columns");
    // STAGES copies of each tile (as shipped only stage 0 is used; TODO 5
    // uses them all): the products read one while the tiles of the next
    // steps arrive in the others. Dynamic shared memory, sized by the
    // launcher (S::bytes): over 48 KiB, a block may have it only this way,
    // and the large shape needs 49 664 bytes (49 152 until TODO 3's padding).
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

    // TODO 1, first part: the warp tile (README: "Warp tiling"). Where this
    //         thread's results lie, as offsets inside the block's tile:
    //           - warp_m, warp_n: the top-left corner of its warp's WM x WN
    //             piece; the BM / WM x BN / WN pieces are numbered row by
    //             row, warp w (tid / 32) taking piece w;
    //           - lane_m, lane_n: the top-left corner of its lane's TM x TN
    //             block inside each WSUBM x WSUBN sub-tile of that piece;
    //             the blocks are numbered row by row, S::LANES_ACROSS to a
    //             row, lane l (tid % 32) taking block l.
    //         As shipped every thread takes the same place. Once TODO 4
    //         reads the fragments as float4, `make check N=2048` shows
    //         whether the lanes' order suits the banks (README: "Warp
    //         tiling").
    const int warp_m = 0, warp_n = 0;
    const int lane_m = 0, lane_n = 0;

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
    // B: global -> stage `st`, the tile starting at row k0. As shipped it
    // goes through registers, so the copy is complete when copy_b returns.
    //
    // TODO 5, step 2 (once step 1, in the loop below, passes): copy B with
    //         cp.async instead, global -> shared with no registers on the
    //         way (README: "A pipeline of tiles"). For VEC, one 16-byte
    //         __pipeline_memcpy_async per float4 this thread owns, zero-filled
    //         (zfill 16) when its row or column is outside B. For VEC false
    //         (n % 4 != 0: rows of B do not start 16-byte aligned, and a
    //         float4 may cross the matrix's edge), 4-byte copies, each
    //         zero-filled on its own, 4 * S::B_LOADS per thread: take them so
    //         that consecutive threads copy consecutive words of the tile,
    //         and a warp's stores hit each bank once (four copies per float4
    //         at b_col + q would make a 4-way conflict). The commits and
    //         waits stay in the loop. `make run` must still pass.
    auto copy_b = [&](int st, int k0) {
#pragma unroll
        for (int i = 0; i < S::B_LOADS; ++i) {
            const int r = b_row + i * B_ROW_STEP;
            *reinterpret_cast<float4 *>(&Bs[st][r][b_col]) = load4<VEC>(B, n, k0 + r, block_col + b_col);
        }
    };

    // TODO 5, step 1: Turn this loop into a pipeline of STAGES tiles in
    //         flight (README: "A pipeline of tiles"). The cp.async
    //         primitives, from <cuda_pipeline_primitives.h>, all per thread:
    //           __pipeline_memcpy_async(dst, src, size, zfill)
    //               starts copying size bytes (4, 8 or 16; dst and src
    //               aligned to size) from global src to shared dst and
    //               returns at once: dst may not be read until a wait covers
    //               the copy. The last zfill bytes of dst are written as
    //               zeros instead of read; src must still be a valid address
    //               (B itself will do).
    //           __pipeline_commit()
    //               closes this thread's copies issued since its last commit
    //               into one group (an empty group if there were none).
    //           __pipeline_wait_prior(N)
    //               waits until all of this thread's committed groups but
    //               the N most recent have landed. Other threads' copies are
    //               visible only after a __syncthreads() that follows their
    //               own waits.
    //         Keep copy_b as it is for this step (the commits and waits then
    //         have nothing to do, but the structure is the final one):
    //           - before the loop: fetch_a(0) and stash_a(0); then for
    //             s = 0 .. STAGES - 2, copy_b(s, s * BK) if tile s exists,
    //             and __pipeline_commit() after each, whether it exists or not;
    //           - step t reads stage t % STAGES. At its top,
    //             __pipeline_wait_prior(STAGES - 2), then ONE __syncthreads();
    //             then copy_b of tile t + STAGES - 1 into its stage if that
    //             tile exists, and __pipeline_commit() in any case;
    //           - fetch_a() of tile t + 1 BEFORE the products, stash_a() of
    //             it into stage (t + 1) % STAGES AFTER them;
    //           - no barrier at the end of a step: say in a comment why the
    //             one at the top is enough.
    //         The invariant: one group per tile, committed in tile order,
    //         empty past the last tile. At the top of step t, STAGES - 1 + t
    //         groups have been committed, so "all but the STAGES - 2 most
    //         recent" is exactly tiles 0 .. t: tile t has landed, and the
    //         barrier makes every thread's part of it visible. A skipped
    //         commit breaks that count. `make run` must pass, and
    //         `make check` must show most stretches between barriers storing
    //         one stage while reading another. Then do step 2, in copy_b.
    const int tiles = (n + BK - 1) / BK;
    for (int t = 0; t < tiles; ++t) {
        const int st = 0;
        fetch_a(t * BK);
        stash_a(st);
        copy_b(st, t * BK);
        __syncthreads();

        // TODO 4: Read the fragments below as float4: four adjacent floats of
        //         As (and of Bs) in one 16-byte shared read, copied into
        //         a_frag / b_frag (README: "16 bytes at a time"). As[st][k]
        //         rows must be 16-byte aligned: that is why A_PAD is a
        //         multiple of 4. Keep A's reads going through a_swizzle:
        //         the float4 at As[st][k][a_swizzle(k, m)], m a multiple of 4,
        //         holds rows m .. m + 3 of A in order, since the swizzle of
        //         TODO 3 moves whole float4s.
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int wm = 0; wm < S::WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; ++i)
                    a_frag[wm * TM + i] = As[st][k][a_swizzle(k, warp_m + wm * S::WSUBM + lane_m + i)];
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    b_frag[wn * TN + j] = Bs[st][k][warp_n + wn * S::WSUBN + lane_n + j];
#pragma unroll
            for (int i = 0; i < S::WMITER * TM; ++i)
#pragma unroll
                for (int j = 0; j < WNITER * TN; ++j)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }

        __syncthreads();
    }

    // TODO 1, second part: Store acc into C. Element acc[wm * TM + i][wn * TN + j] is
    //         C[row][col] with
    //           row = block_row + warp_m + wm * S::WSUBM + lane_m + i,
    //           col = block_col + warp_n + wn * S::WSUBN + lane_n + j,
    //         for wm < S::WMITER, i < TM, wn < WNITER, j < TN; skip elements
    //         outside the n x n matrix. Then, for VEC, store each four
    //         adjacent columns (j a multiple of 4) with one float4 store
    //         (README: "Edges and the 16-byte path").
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
void matmul(const float *A, const float *B, float *C, int n)
{
    // The shapes `make tune` measured fastest on an H200 (README: "Choosing
    // the shapes"). Large products: 256 x 128 x 16 block tiles, 8 warps of
    // 64 x 64, each lane 8 x 4 in each of 4 sub-tiles (8 x 16 in all), 2
    // stages: 49 664 bytes of shared memory, just over the 48 KiB a block
    // gets without asking. Below 2048 that gives too few blocks to fill the
    // GPU's SMs, so 64 x 64 x 16 tiles (4 warps of 32 x 32, 4 x 8 per lane)
    // with 4 stages are used there.
    // TODO 6: The large shape needs 49 664 bytes of shared memory a block
    //         (49 152 before TODO 3's padding): more than some GPUs offer
    //         at all, and there its launch fails. Ask the device what it
    //         offers a block once the kernel opts in (cudaDeviceGetAttribute
    //         with cudaDevAttrMaxSharedMemoryPerBlockOptin, or the
    //         sharedMemPerBlockOptin that cudaGetDeviceProperties fills in),
    //         and take the large shape only where its bytes fit
    //         (warp_tiling<...>::bytes(2) counts them); elsewhere the small
    //         shape serves every n. Decide by that number, not by the
    //         compute capability (README: "Asking the device").
    if (n >= 2048)
        launch_warptile<256, 128, 16, 64, 64, 4, 8, 4, 2>(A, B, C, n);
    else
        launch_warptile<64, 64, 16, 32, 32, 2, 4, 4, 4>(A, B, C, n);
}
#endif
