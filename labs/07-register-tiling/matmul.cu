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

    // TODO 1: Declare what this thread keeps in registers: one running sum
    //         for each of its TM x TN elements of C, each starting where a
    //         sum must start, and room for the values of A and of B it
    //         needs for one k. How many registers is that?
    //         (README: "Registers are the budget".)

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

        // TODO 2: For each k of this phase's tiles, read from As and Bs the
        //         values this thread's rows and columns need (which rows of
        //         As and columns of Bs are they? README: "Strided, not
        //         adjacent") into registers, then do every multiply-add
        //         between them from registers alone. How many shared reads
        //         does one k cost, for how many multiply-adds? Work it out
        //         (README: "Reads per multiply-add"), then compare with what
        //         `make check` prints as shared words per multiply-add.

        __syncthreads();
    }

    // TODO 3: Store each of this thread's sums into its element of C,
    //         once. Which row and column of C does each one belong to (the
    //         block's corner, the thread's first row and column, and the
    //         stride between its rows and columns)? Skip the elements that
    //         lie outside the n x n matrix (README: "Edges").
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_register_kernel<<<grid, THREADS>>>(A, B, C, n);
}
