// Stage 03-shared-3x3: one block multiplies two n x n matrices through shared
// memory, for 3x3 and then for every n one block can hold.
//
// The kernel of stage 02, grown up: shared arrays sized for the largest
// matrix one block can cover, a dot product over n shared elements, and a
// launch of n x n threads. It teaches which thread loads which element and
// which shared elements each thread then reads, what the barrier makes each
// thread wait for, and where the approach stops: a block holds at most 1024
// threads, so n = 32 is the end. For n = 33 the launch is refused with
// an invalid-configuration error, a clear error rather than a wrong answer;
// stage 04 gets past the limit with tiles.
//
//   make -C labs/03-shared-3x3 run N=3     # build, check against the CPU reference, time it
//   make -C labs/03-shared-3x3 run N=32    # the largest n one block can hold
//   make -C labs/03-shared-3x3 run N=33    # refused: 33 x 33 = 1089 threads
//   make grade LAB=03-shared-3x3           # grade this stage

#include "lab.h"

// The largest n for which n x n threads fit in one block: 32 x 32 = 1024, the
// limit on every current CUDA GPU, while 33 x 33 = 1089 is over it.
#define MAX_N 32

// ---- kernel ----

__global__ void matmul_one_block_kernel(const float *A, const float *B, float *C, int n)
{
    // Static shared arrays are sized when the file is compiled, so they are
    // sized for MAX_N: 2 x 32 x 32 x 4 = 8192 bytes per block whatever n is.
    // Flat and row-major like A and B, so an n x n product fills their first
    // n*n slots. A launch with n > MAX_N never runs (too many threads), so
    // nothing indexes past their end.
    __shared__ float As[MAX_N * MAX_N];
    __shared__ float Bs[MAX_N * MAX_N];

    // One block covers the whole matrix: the thread's position in the block
    // is its element of C, with x walking the columns as in stage 01.
    int col = threadIdx.x;
    int row = threadIdx.y;

    // The block is exactly n x n threads, so every thread owns an element
    // and no edge guard is needed. Each element of A and of B is read from
    // global memory once, by the thread at the same position.
    As[row * n + col] = A[row * n + col];
    Bs[row * n + col] = B[row * n + col];

    // Protects the loads above: each thread is about to read 2n shared
    // elements, and all but two of them (for n > 1) were stored by other
    // threads, so it must wait until every thread of the block has stored.
    __syncthreads();

    // Row `row` of As times column `col` of Bs, from shared memory only.
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += As[row * n + k] * Bs[k * n + col];

    // As and Bs are never written again, so no barrier is needed after the
    // loop (stage 04 reloads them, and needs one).
    C[row * n + col] = sum;
}

// ---- launcher ----

void matmul(const float *A, const float *B, float *C, int n)
{
    // One block of n x n threads, for every n. No check for n > MAX_N here:
    // CUDA itself refuses a block of more than 1024 threads with
    // an error (the simulator: cudaErrorInvalidConfiguration), and the
    // caller's error check reports it.
    dim3 grid(1, 1);
    dim3 block(n, n);
    matmul_one_block_kernel<<<grid, block>>>(A, B, C, n);
}
