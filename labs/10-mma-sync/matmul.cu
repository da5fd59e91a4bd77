// Stage 10-mma-sync: the product on tensor cores, one PTX instruction at a
// time, the fragments laid out by hand.
//
// mma_m16n8k8_tf32 (mma_tf32.h) is PTX's mma.sync.aligned.m16n8k8 with TF32
// operands and float sums: it adds a 16 x 8 tile of A times an 8 x 8 tile
// of B to a 16 x 8 tile of C for a whole warp, 1024 multiply-adds. Unlike
// stage 09's WMMA, its fragments have a documented layout: lane l, in group
// g = l / 4 with rank t = l % 4, holds
//
//   a[0] = A(g, t)     a[1] = A(g+8, t)     a[2] = A(g, t+4)     a[3] = A(g+8, t+4)
//   b[0] = B(t, g)     b[1] = B(t+4, g)
//   c[0] = C(g, 2t)    c[1] = C(g, 2t+1)    c[2] = C(g+8, 2t)    c[3] = C(g+8, 2t+1)
//
// of the warp's 16 x 8 tile of A, 8 x 8 of B and 16 x 8 of C. So the
// kernel loads each lane's elements itself, rounds them itself, and
// stores its elements of C straight into C.
//
// The block is stage 09's: BM x BN of C per block, tiles of A and B copied
// into shared memory with cp.async STAGES - 1 steps ahead, padded rows,
// 8 warps of WM x WN, each holding 4 x 8 tiles of 16 x 8 of C.
//
//   make -C labs/10-mma-sync run N=1000   # build, check against the CPU reference, time it
//   make -C labs/10-mma-sync check        # the simulator's counts: tensor-core work, bank conflicts
//   make grade LAB=10-mma-sync            # grade this stage
//
// As shipped, this file compiles and runs but computes nothing and stores
// nothing, so the check fails. The tile copies, the pipeline, the barriers
// and the padding are done for you. Work through the TODOs in order;
// README.md in this folder explains each one.

#include <cuda_pipeline_primitives.h>

#include "lab.h"
#include "mma_tf32.h"

#define BM 128   // rows of C per block
#define BN 256   // columns of C per block
#define WM 64    // rows of C per warp
#define WN 64    // columns of C per warp
#define STAGES 3 // tiles in shared memory at once: this step's and two in flight
#define MMA_M 16 // one mma adds a 16 x 8 tile of C
#define MMA_N 8
#define MMA_K 8  // from 16 x 8 of A and 8 x 8 of B

// BK, the k-width of one step's tiles, is a template parameter: the
// launcher takes BK_WIDE where the device gives a block the shared memory
// for it, else BK_NARROW (stage 09's "Where the shared memory runs short").
#define BK_WIDE 32
#define BK_NARROW 16

#define WARPS_X (BN / WN)
#define WARPS ((BM / WM) * WARPS_X)
#define THREADS (WARPS * 32)
#define FM (WM / MMA_M)  // tiles of C down a warp's piece
#define FN (WN / MMA_N)  // and across it

// Rows of the shared tiles, padded. Lane (g, t) reads A at row g, column
// t: eight rows of four words. Rows BK + 4 words apart start 4 banks apart
// (at BK = 16, 20 apart: banks 0, 20, 8, 28, 16, 4, 24, 12), so the 32
// lanes read 32 banks. It reads B at row t, column g: four rows of eight
// words, BN + 8 apart, 8 banks apart. Both stay multiples of 4 floats, as
// a 16-byte copy of a row's floats needs.
#define LDA (BK + 4)
#define LDB (BN + 8)
#define A_TILE (BM * LDA)  // floats of one stage's A tile
#define B_TILE (BK * LDB)
#define SHARED_BYTES (STAGES * (A_TILE + B_TILE) * sizeof(float))

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
__global__ void __launch_bounds__(THREADS) matmul_mma_kernel(const float *A, const float *B, float *C, int n)
{
    // STAGES A tiles, then STAGES B tiles.
    extern __shared__ __align__(16) float tiles[];
    float *As = tiles, *Bs = tiles + STAGES * A_TILE;

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int g = lane / 4, t = lane % 4;  // the lane's group and its rank in it (mma_tf32.h)
    const int warp_row = (warp / WARPS_X) * WM, warp_col = (warp % WARPS_X) * WN;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    // This lane's 4 elements of each of the warp's FM x FN tiles of C.
    float acc[FM][FN][4];
    for (int i = 0; i < FM; ++i)
        for (int j = 0; j < FN; ++j)
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.0f;

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

    for (int step = 0; step < steps; ++step) {
        // This thread's copies of this step have landed; after the barrier
        // everyone's have, and everyone is done with the step before, whose
        // stage the copies of step + STAGES - 1 refill.
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        if (step + STAGES - 1 < steps)
            copy_step(step + STAGES - 1);
        __pipeline_commit();

        const float *as = As + (step % STAGES) * A_TILE, *bs = Bs + (step % STAGES) * B_TILE;
#pragma unroll
        for (int kk = 0; kk < BK; kk += MMA_K) {
            uint32_t a[FM][4], b[FN][2];
            // TODO 1: For each i < FM, load this lane's four elements of the
            // warp's i-th 16 x 8 tile of A, columns kk to kk + 7 of `as`
            // (rows warp_row + i * MMA_M to + 15; each row is LDA floats
            // long), into a[i][0..3] in the order at the top of this file,
            // each rounded to TF32 with tf32_bits.

            // TODO 2: For each j < FN, load this lane's two elements of the
            // warp's j-th 8 x 8 tile of B, rows kk to kk + 7 of `bs`
            // (columns warp_col + j * MMA_N to + 7; rows LDB floats long),
            // into b[j][0..1], each rounded to TF32.

            // TODO 3: acc[i][j] += a[i] b[j] for every i and j: one
            // mma_m16n8k8_tf32(d, a, b, c) each, d and c both acc[i][j].
            (void)a, (void)b, (void)as, (void)bs, (void)g, (void)t, (void)warp_row, (void)warp_col;  // until you use them
        }
    }
    __pipeline_wait_prior(0);  // no copy (an empty group's included) still in flight at exit

    // TODO 4: Store this lane's four elements of each acc[i][j] into C,
    // where the layout puts them (the top of this file): the tile's row 0
    // is block_row + warp_row + i * MMA_M, its column 0 block_col +
    // warp_col + j * MMA_N. Write only elements inside C (row < n and
    // col < n), each on its own or, where both of a pair are inside C and
    // n is even, as one float2. Put #pragma unroll on your loops over i
    // and j: with indices the compiler cannot see, acc moves to local
    // memory (README.md, "Storing C").
    (void)acc;
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
        CUDA_CHECK(cudaFuncSetAttribute(matmul_mma_kernel<BK, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)shared_bytes<BK>()));
        allowed = true;
    }
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_mma_kernel<BK, VEC><<<grid, THREADS, shared_bytes<BK>()>>>(A, B, C, n);
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
    // there BK = 16 (81 408 bytes) runs (stage 09's lesson: "Where the
    // shared memory runs short").
    if (device_offers(shared_bytes<BK_WIDE>()))
        launch_for<BK_WIDE>(A, B, C, n);
    else
        launch_for<BK_NARROW>(A, B, C, n);
}
