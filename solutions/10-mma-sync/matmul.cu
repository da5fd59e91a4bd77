// Stage 10-mma-sync: the product on tensor cores, one PTX instruction at a
// time, the fragments laid out by hand.
//
// Stage 09's wmma::mma_sync hides which lane holds which element of a
// fragment. PTX's mma.sync.aligned.m16n8k8 (TF32 operands, float sums)
// documents it, so this kernel loads each lane's elements of A and B from
// shared memory itself, rounds them to TF32 itself, and writes its own
// elements of C straight to global memory, no scratch tile between.
// mma_tf32.h names the two instructions (mma_m16n8k8_tf32, tf32_bits) and
// gives the layout; one call adds a 16x8 tile of A times an 8x8 tile of B
// to a 16x8 tile of C, 1024 multiply-adds.
//
// The rest is stage 09's kernel: the same block tiles (BM x BN of C per
// block, BM x BK of A and BK x BN of B staged per step, cp.async STAGES - 1
// steps ahead), the same 8 warps of WM x WN, the same padded rows. Each
// warp keeps 4 x 8 tiles of 16 x 8 of C in registers for the whole k loop.
//
//   make -C labs/10-mma-sync run N=1000   # build, check against the CPU reference, time it
//   make grade LAB=10-mma-sync            # grade this stage

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

// C's two elements (row, col) and (row, col + 1), this lane's pair of one
// row of a 16 x 8 tile: one 8-byte store where both are inside C and n is
// even (then row * n + col is even, the pair 8-byte aligned), else each on
// its own, guarded.
__device__ void store_pair(float *C, int n, int row, int col, float v0, float v1)
{
    if (row >= n)
        return;
    if (n % 2 == 0 && col + 1 < n) {
        *reinterpret_cast<float2 *>(&C[row * n + col]) = make_float2(v0, v1);
        return;
    }
    if (col < n)
        C[row * n + col] = v0;
    if (col + 1 < n)
        C[row * n + col + 1] = v1;
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
            // The lane's elements of the fragments, each rounded to TF32 as
            // it leaves shared memory: a[i] = A(g, t), A(g+8, t), A(g, t+4),
            // A(g+8, t+4) of the warp's i-th 16 x 8 of A; b[j] = B(t, g),
            // B(t+4, g) of its j-th 8 x 8 of B.
            uint32_t a[FM][4], b[FN][2];
#pragma unroll
            for (int i = 0; i < FM; ++i) {
                const float *p = as + (warp_row + i * MMA_M + g) * LDA + kk + t;
                a[i][0] = tf32_bits(p[0]);
                a[i][1] = tf32_bits(p[8 * LDA]);
                a[i][2] = tf32_bits(p[4]);
                a[i][3] = tf32_bits(p[8 * LDA + 4]);
            }
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                const float *p = bs + (kk + t) * LDB + warp_col + j * MMA_N + g;
                b[j][0] = tf32_bits(p[0]);
                b[j][1] = tf32_bits(p[4 * LDB]);
            }
            // FM x FN products from FM + FN fragments, as in stage 09.
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    mma_m16n8k8_tf32(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
    __pipeline_wait_prior(0);  // no copy (an empty group's included) still in flight at exit

    // The lane's elements of C, where the layout puts them: C(g, 2t) and
    // C(g, 2t+1), then the same eight rows down. Each is guarded on its
    // own, so edge tiles need no scratch. Unrolled, so that acc[i][j] is
    // a register: an index the compiler cannot see would move acc to
    // local memory.
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) {
            const int row = block_row + warp_row + i * MMA_M + g;
            const int col = block_col + warp_col + j * MMA_N + 2 * t;
            store_pair(C, n, row, col, acc[i][j][0], acc[i][j][1]);
            store_pair(C, n, row + 8, col, acc[i][j][2], acc[i][j][3]);
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
