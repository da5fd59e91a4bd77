// Stage 07-register-tiling: every thread computes a TM x TN block of C.
//
// Stage 04's threads each made one element of C and read 2 shared floats
// per multiply-add. Here a thread keeps TM x TN sums in registers: for each
// k it reads TM values of A and TN of B into registers, then does TM * TN
// multiply-adds with them. The block tile grows to BM x BN = 128 x 128, with
// BK = 8 columns of A (rows of B) per phase.
//
//   make -C labs/07-register-tiling run N=1000   # build, check against the CPU reference, time it
//   make -C labs/07-register-tiling check        # the simulator's counts: shared reads, loads, hazards
//   make grade LAB=07-register-tiling            # grade this stage
//
// As shipped, this file compiles and runs but never writes C, so the check
// fails (C still holds the NaNs the kit fills new memory with). The block
// shape, the tile copies and the barriers are done for you. Work through
// the TODOs in order; README.md in this folder explains each one.

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
    // This thread's elements of the block tile are rows thread_row + 16 i
    // and columns thread_col + 16 j, i and j in 0..7 (README: "Strided, not
    // adjacent").
    const int thread_row = tid / THREADS_X, thread_col = tid % THREADS_X;

    // Copying: 256 threads, 1024 elements in each tile, 4 each.
    const int a_row = tid / BK, a_col = tid % BK;  // A: 32 rows of 8 per pass
    const int b_row = tid / BN, b_col = tid % BN;  // B: 2 rows of 128 per pass

    // TODO 1: Declare the registers: float sum[TM][TN], all zero, and
    //         float a_reg[TM], b_reg[TN] for one k's values of A and B.

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

        // TODO 2: For each k in 0..BK-1:
        //           - read a_reg[i] = As[thread_row + i * THREADS_Y][k] for
        //             i in 0..TM-1, and b_reg[j] = Bs[k][thread_col + j *
        //             THREADS_X] for j in 0..TN-1 (TM + TN shared reads);
        //           - then sum[i][j] += a_reg[i] * b_reg[j] for every i, j
        //             (TM * TN multiply-adds, registers only).
        //         (README: "Reads per multiply-add".) `make check` should
        //         then show 0.25 shared words per multiply-add.

        __syncthreads();
    }

    // TODO 3: Store sum[i][j] into C at row block_row + thread_row + i *
    //         THREADS_Y, column block_col + thread_col + j * THREADS_X, for
    //         every i and j, skipping elements outside the n x n matrix
    //         (README: "Edges").
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_register_kernel<<<grid, THREADS>>>(A, B, C, n);
}
