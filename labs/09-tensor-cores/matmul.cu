// Stage 09-tensor-cores: the product on tensor cores, through nvcuda::wmma.
//
// One wmma::mma_sync adds a 16 x 8 tile of A times an 8 x 16 tile of B to a
// 16 x 16 tile of C for a whole warp: 2048 multiply-adds, with the inputs
// read as TF32 (10 mantissa bits) and the sums kept in float. The warp
// holds each tile as a "fragment" spread over its 32 lanes.
//
// The block keeps stage 08's ideas: a BM x BN tile of C per block, tiles
// of A and B copied into shared memory with cp.async STAGES - 1 steps
// ahead, and each of the 8 warps owning a WM x WN piece of C: 4 x 4
// fragments.
//
//   make -C labs/09-tensor-cores run N=1000   # build, check against the CPU reference, time it
//   make -C labs/09-tensor-cores check        # the simulator's counts: tensor-core work, bank conflicts
//   make grade LAB=09-tensor-cores            # grade this stage
//
// As shipped, this file compiles and runs but never computes the
// accumulators, and stores every fragment the edge's way, so the check
// fails. The tile
// copies, the pipeline and the barriers are done for you, and so is the
// store of a fragment at C's edge. Work through the TODOs in order;
// README.md in this folder explains each one.

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

// Rows of the shared tiles: how many floats apart they are.
// TODO 5: Pad both, once the product is right, so that the fragment loads
// have no bank conflicts (README: "Fragments and banks"; make check counts
// them). A stride must stay a multiple of 4 floats, and is written in BK
// and BN: the launcher may choose BK = 16.
#define LDA BK
#define LDB BN
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

    // This warp's FM x FN fragments of C, in registers for the whole loop.
    c_fragment acc[FM][FN];
    // TODO 1: A fragment starts with undefined elements: set every element
    // of every acc[i][j] to zero (README: "Fragments").

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
        // TODO 2: For each k-step kk of FRAG_K columns in this tile (kk < BK,
        // the template's k-width, 32 or 16: never a literal), load the
        // warp's FM fragments of A (rows warp_row + 16 i of as, from column
        // kk) and its FN fragments of B (row kk of bs, columns warp_col + 16 j)
        // with wmma::load_matrix_sync, and round every element of each to
        // TF32 with wmma::__float_to_tf32 (README: "Loading fragments",
        // "TF32").
        // TODO 3: Multiply: acc[i][j] += a[i] * b[j] for every i, j, with
        // wmma::mma_sync (README: "The product").
        (void)as;
        (void)bs;
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
            // TODO 4: A fragment wholly inside C with n % 4 == 0: store
            // acc[i][j] straight into C at (r0, c0), rows n floats apart,
            // with wmma::store_matrix_sync, and go on to the next fragment
            // (README: "Storing C").

            // An edge fragment (or n % 4 != 0): done for you.
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
