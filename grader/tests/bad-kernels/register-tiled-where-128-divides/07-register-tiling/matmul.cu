// Stage 07-register-tiling: every thread computes a TM x TN block of C.
//
// Stage 04's threads each made one element of C, reading 2 shared floats
// per multiply-add. Here a thread keeps TM x TN sums in registers; for each
// k it reads TM values of A and TN values of B from shared memory into
// registers and does TM * TN multiply-adds with them: (TM + TN) shared reads
// for TM * TN products. With 8 x 8 that is 16 reads for 64 products, an
// eighth of stage 04's reads per product. The block tile grows to
// BM x BN = 128 x 128 with BK = 8 columns of A (rows of B) per phase, so each
// element brought from global memory is used 128 times.
//
// A thread's TM x TN elements are strided, not adjacent: rows
// thread_row + 16 i and columns thread_col + 16 j. Neighbouring lanes then
// read neighbouring shared words (no bank conflicts) and store neighbouring
// elements of C (coalesced), as in stage 04.
//
//   make -C labs/07-register-tiling run N=1000   # build, check against the CPU reference, time it
//   make grade LAB=07-register-tiling            # grade this stage

#include "lab.h"

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // the k-width of one phase's tiles
#define TM 8    // rows of C per thread
#define TN 8    // columns of C per thread

// 16 x 16 threads, each TM x TN elements: the 128 x 128 block tile.
#define THREADS_Y (BM / TM)
#define THREADS_X (BN / TN)
#define THREADS (THREADS_X * THREADS_Y)

// ---- kernel ----

__global__ void __launch_bounds__(THREADS) matmul_register_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK];  // this phase's BM x BK tile of A
    __shared__ float Bs[BK][BN];  // and BK x BN tile of B

    const int tid = threadIdx.x;  // a 1-D block of THREADS threads
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    // Where this thread's strided TM x TN elements start inside the tile.
    const int thread_row = tid / THREADS_X, thread_col = tid % THREADS_X;

    // Copying: 256 threads, 1024 elements in each tile, 4 each. Consecutive
    // threads take consecutive elements of a row, so loads stay coalesced.
    const int a_row = tid / BK, a_col = tid % BK;  // A: 32 rows of 8 per pass
    const int b_row = tid / BN, b_col = tid % BN;  // B: 2 rows of 128 per pass

    float sum[TM][TN] = {};
    float a_reg[TM], b_reg[TN];

    const int phases = (n + BK - 1) / BK;
    for (int t = 0; t < phases; ++t) {
        const int k0 = t * BK;
        for (int i = 0; i < BM; i += THREADS / BK) {
            int r = block_row + a_row + i, c = k0 + a_col;
            As[a_row + i][a_col] = (r < n && c < n) ? A[r * n + c] : 0.0f;
        }
        for (int i = 0; i < BK; i += THREADS / BN) {
            int r = k0 + b_row + i, c = block_col + b_col;
            Bs[b_row + i][b_col] = (r < n && c < n) ? B[r * n + c] : 0.0f;
        }
        __syncthreads();

        for (int k = 0; k < BK; ++k) {
            // TM + TN shared reads into registers...
            for (int i = 0; i < TM; ++i)
                a_reg[i] = As[thread_row + i * THREADS_Y][k];
            for (int j = 0; j < TN; ++j)
                b_reg[j] = Bs[k][thread_col + j * THREADS_X];
            // ...and TM * TN multiply-adds from registers alone.
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    sum[i][j] += a_reg[i] * b_reg[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; ++i) {
        int r = block_row + thread_row + i * THREADS_Y;
        for (int j = 0; j < TN; ++j) {
            int c = block_col + thread_col + j * THREADS_X;
            if (r < n && c < n)
                C[r * n + c] = sum[i][j];
        }
    }
}

// ---- launcher ----

// Stage 04's tiled kernel, for the sizes the block tile does not divide.
#define SMALL_TILE 32
__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n)
{
    // One tile of A and one of B: 2 * SMALL_TILE * SMALL_TILE floats per block
    // (8 KiB for SMALL_TILE = 32), far below the 48 KiB static limit.
    __shared__ float As[SMALL_TILE][SMALL_TILE];
    __shared__ float Bs[SMALL_TILE][SMALL_TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    // The block is SMALL_TILE x SMALL_TILE threads, so blockIdx * SMALL_TILE is the corner of
    // this block's tile of C; x walks the columns, as in stage 01.
    int col = blockIdx.x * SMALL_TILE + tx;
    int row = blockIdx.y * SMALL_TILE + ty;

    float sum = 0.0f;
    int phases = (n + SMALL_TILE - 1) / SMALL_TILE;  // rounded up: the last tile may be partial
    for (int t = 0; t < phases; ++t) {
        // Each thread copies one element of each tile. The A tile slides
        // along this block's rows of A, the B tile down its columns of B.
        int a_col = t * SMALL_TILE + tx;
        int b_row = t * SMALL_TILE + ty;
        // Out-of-range elements become 0 instead of being skipped: a zero
        // adds nothing to the sum, and the thread still goes on to the
        // barriers below with everyone else.
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        // Protects the reads below: nobody reads a tile until every thread
        // has written its element of it.
        __syncthreads();

        for (int k = 0; k < SMALL_TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];

        // Protects the next phase's writes: nobody overwrites a tile until
        // every thread has finished reading this phase's values.
        __syncthreads();
    }

    // Only the store is guarded: threads outside C took part in the loads
    // and the barriers, but own no element of C.
    if (row < n && col < n)
        C[row * n + col] = sum;
}

// The register-tiled kernel only where the 128 x 128 block tile divides n
// (no partial tile to handle), stage 04's everywhere else.
void matmul(const float *A, const float *B, float *C, int n)
{
    if (n % BM == 0 && n % BN == 0) {
        dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
        matmul_register_kernel<<<grid, THREADS>>>(A, B, C, n);
    } else {
        dim3 block(SMALL_TILE, SMALL_TILE), grid((n + SMALL_TILE - 1) / SMALL_TILE, (n + SMALL_TILE - 1) / SMALL_TILE);
        matmul_tiled_kernel<<<grid, block>>>(A, B, C, n);
    }
}
