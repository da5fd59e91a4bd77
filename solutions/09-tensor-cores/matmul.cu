// Stage 09-tensor-cores: the product on tensor cores, through nvcuda::wmma.
//
// A tensor core multiplies small matrices in one instruction for a whole
// warp. With TF32 inputs and float sums the shape is m16n16k8: one
// wmma::mma_sync adds a 16x8 tile of A times an 8x16 tile of B to a 16x16
// tile of C, 2048 multiply-adds. The warp holds each tile as a "fragment",
// spread over its 32 lanes in an order CUDA does not promise: the code only
// loads, multiplies and stores fragments, never indexes one.
//
// The block tiles are stage 07's and 08's ideas again: a block computes
// BM x BN of C, staging BM x BK of A and BK x BN of B in shared memory per
// step, copied with cp.async STAGES - 1 steps ahead (stage 08's pipeline).
// Each of its 8 warps owns a WM x WN piece of the block's tile: 4 x 4
// fragments of C, kept in registers for the whole k loop.
//
// TF32 keeps 10 of float's 23 mantissa bits: an operand is off by up to
// 2^-11 of itself once rounded, and the sums stay in float. The grader
// allows for it (the lesson derives the tolerance).
//
//   make -C labs/09-tensor-cores run N=1000   # build, check against the CPU reference, time it
//   make grade LAB=09-tensor-cores            # grade this stage

#include <cuda_pipeline_primitives.h>
#include <mma.h>

#include "lab.h"

using namespace nvcuda;

#define BM 128   // rows of C per block
#define BN 256   // columns of C per block
#define WM 64    // rows of C per warp
#define WN 64    // columns of C per warp
#define STAGES 3 // tiles in shared memory at once: this step's and two in flight
#define FRAG 16  // a fragment of C is 16 x 16
#define FRAG_K 8 // and takes 16 x 8 of A, 8 x 16 of B

// BK, the k-width of one step's tiles, is a template parameter: the
// launcher takes BK_WIDE where the device gives a block the shared memory
// for it, else BK_NARROW. Everything below that uses BK follows the one
// chosen.
#define BK_WIDE 32
#define BK_NARROW 16

#define WARPS_X (BN / WN)
#define WARPS ((BM / WM) * WARPS_X)
#define THREADS (WARPS * 32)
#define FM (WM / FRAG)  // fragments of C down a warp's piece
#define FN (WN / FRAG)  // and across it

// Rows of the shared tiles, padded. A fragment load of A reads 8 rows at a
// time, 4 words each: with rows BK = 32 words apart all 8 rows start in
// bank 0 (an 8-way conflict); BK + 4 puts them 4 banks apart, and the 8
// rows fill the 32 banks (at BK = 16, BK + 4 = 20 does too: the rows start
// in banks 0, 20, 8, 28, 16, 4, 24, 12). B's loads read 4 rows of 8 words:
// BN + 8 starts them 8 banks apart. Both stay multiples of 4 floats, as
// WMMA requires of a stride and a 16-byte copy of a row's floats needs, and
// keep every fragment 32-byte aligned.
#define LDA (BK + 4)
#define LDB (BN + 8)
#define A_TILE (BM * LDA)  // floats of one stage's A tile
#define B_TILE (BK * LDB)
#define SHARED_BYTES (STAGES * (A_TILE + B_TILE) * sizeof(float))

typedef wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG_K, wmma::precision::tf32, wmma::row_major> a_fragment;
typedef wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG_K, wmma::precision::tf32, wmma::row_major> b_fragment;
typedef wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG_K, float> c_fragment;

// ---- kernel ----

// Starts the copies of one step's tiles, rows x cols of M from (row0, col0)
// into a tile whose rows are ld floats apart: 16-byte copies when every
// row of M starts 16-byte aligned (n % 4 == 0), else 4-byte ones.
// Consecutive threads take consecutive pieces of a row: coalesced. A piece
// outside M reads nothing and stores zeros (the last argument: bytes to
// zero-fill), from a source pointer that must still be valid, M itself, so
// edge tiles multiply like any other.
template <int ROWS, int COLS, bool VEC>
__device__ void copy_tile(float *tile, int ld, const float *M, int n, int row0, int col0)
{
    // Every thread makes the same number of copies, PIECES / THREADS, a
    // number the compiler sees: unrolled, each copy's row and column are a
    // constant away from the first one's. (A loop from threadIdx.x has a
    // trip count it cannot see, and stays a loop with a division a copy.)
    constexpr int WIDTH = VEC ? 4 : 1, PIECES = ROWS * COLS / WIDTH;
    static_assert(PIECES % THREADS == 0, "every thread copies the same number of pieces");
#pragma unroll
    for (int round = 0; round < PIECES / THREADS; ++round) {
        const int e = threadIdx.x + round * THREADS;
        const int r = e / (COLS / WIDTH), c = (e % (COLS / WIDTH)) * WIDTH;
        const int row = row0 + r, col = col0 + c;
        const bool in = row < n && col < n;  // n % 4 == 0: a float4 is all in or all out
        __pipeline_memcpy_async(tile + r * ld + c, in ? &M[row * n + col] : M, WIDTH * sizeof(float),
                                in ? 0 : WIDTH * sizeof(float));
    }
}

template <int BK, bool VEC>
__global__ void __launch_bounds__(THREADS) matmul_wmma_kernel(const float *A, const float *B, float *C, int n)
{
    // STAGES A tiles, then STAGES B tiles; WMMA needs 32-byte aligned tiles.
    extern __shared__ __align__(128) float tiles[];
    float *As = tiles, *Bs = tiles + STAGES * A_TILE;

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_row = (warp / WARPS_X) * WM, warp_col = (warp % WARPS_X) * WN;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    c_fragment acc[FM][FN];
    for (int i = 0; i < FM; ++i)
        for (int j = 0; j < FN; ++j)
            wmma::fill_fragment(acc[i][j], 0.0f);

    auto copy_step = [&](int step) {
        const int st = step % STAGES, k0 = step * BK;
        copy_tile<BM, BK, VEC>(As + st * A_TILE, LDA, A, n, block_row, k0);
        copy_tile<BK, BN, VEC>(Bs + st * B_TILE, LDB, B, n, k0, block_col);
    };

    // Fill the pipeline: one commit (a group of copies) per step, empty
    // ones past the last, so "all but the newest STAGES - 2 groups" always
    // means "up to this step".
    const int steps = (n + BK - 1) / BK;
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < steps)
            copy_step(s);
        __pipeline_commit();
    }

    for (int t = 0; t < steps; ++t) {
        // This thread's copies of step t have landed; after the barrier
        // everyone's have, and everyone is done with step t - 1, whose
        // stage the copies of step t + STAGES - 1 refill.
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        if (t + STAGES - 1 < steps)
            copy_step(t + STAGES - 1);
        __pipeline_commit();

        const float *as = As + (t % STAGES) * A_TILE, *bs = Bs + (t % STAGES) * B_TILE;
#pragma unroll
        for (int kk = 0; kk < BK; kk += FRAG_K) {
            a_fragment a[FM];
            b_fragment b[FN];
            // Each loaded fragment is rounded to TF32 (10 mantissa bits),
            // as CUDA asks of a TF32 operand.
#pragma unroll
            for (int i = 0; i < FM; ++i) {
                wmma::load_matrix_sync(a[i], as + (warp_row + i * FRAG) * LDA + kk, LDA);
#pragma unroll
                for (int e = 0; e < a[i].num_elements; ++e)
                    a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
            }
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                wmma::load_matrix_sync(b[j], bs + kk * LDB + warp_col + j * FRAG, LDB);
#pragma unroll
                for (int e = 0; e < b[j].num_elements; ++e)
                    b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
            }
            // FM x FN products from FM + FN fragments: stage 07's register
            // tiling, one level up.
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
    __pipeline_wait_prior(0);  // no copy (an empty group's included) still writing
    __syncthreads();           // every warp done with the tiles: the scratch below reuses them

    // A fragment wholly inside C goes straight to global memory when C's
    // rows are a stride WMMA takes: n a multiple of 4 floats. (Its first
    // element is 32-byte aligned whatever n is: 16 rows and 16 columns
    // from C's first.) Any other one goes through this warp's 16 x 16 of
    // shared memory, and its lanes copy the part inside C.
    float *scratch = tiles + warp * FRAG * FRAG;
    for (int i = 0; i < FM; ++i)
        for (int j = 0; j < FN; ++j) {
            const int r0 = block_row + warp_row + i * FRAG, c0 = block_col + warp_col + j * FRAG;
            if (r0 >= n || c0 >= n)
                continue;  // the same for every lane: the warp skips it together
            if (n % 4 == 0 && r0 + FRAG <= n && c0 + FRAG <= n) {
                wmma::store_matrix_sync(C + r0 * n + c0, acc[i][j], n, wmma::mem_row_major);
                continue;
            }
            wmma::store_matrix_sync(scratch, acc[i][j], FRAG, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < FRAG * FRAG; e += 32) {
                const int r = r0 + e / FRAG, c = c0 + e % FRAG;
                if (r < n && c < n)
                    C[r * n + c] = scratch[e];
            }
            __syncwarp();  // read before the next fragment overwrites it
        }
}

// ---- launcher ----

// The shared memory one block needs at a k-width of BK.
template <int BK>
constexpr size_t shared_bytes()
{
    return SHARED_BYTES;
}

template <int BK, bool VEC>
static void launch(const float *A, const float *B, float *C, int n)
{
    // Over 48 KiB of shared memory per block must be asked for, once.
    static bool allowed = false;
    if (!allowed) {
        CUDA_CHECK(cudaFuncSetAttribute(matmul_wmma_kernel<BK, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)shared_bytes<BK>()));
        allowed = true;
    }
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_wmma_kernel<BK, VEC><<<grid, THREADS, shared_bytes<BK>()>>>(A, B, C, n);
}

template <int BK>
static void launch_for(const float *A, const float *B, float *C, int n)
{
    if (n % 4 == 0)
        launch<BK, true>(A, B, C, n);
    else
        launch<BK, false>(A, B, C, n);
}

// Whether the device lets a block have `bytes` of shared memory once its
// kernel opts in (stage 08, "Asking the device").
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
    // BK = 32 needs 156 672 bytes a block with the padded rows: an H200
    // or an A100 gives that, a GeForce RTX 30 or 40 (99 KiB) does not, and
    // there BK = 16 (81 408 bytes) runs (README: "Where the shared memory
    // runs short").
    if (device_offers(shared_bytes<BK_WIDE>()))
        launch_for<BK_WIDE>(A, B, C, n);
    else
        launch_for<BK_NARROW>(A, B, C, n);
}
