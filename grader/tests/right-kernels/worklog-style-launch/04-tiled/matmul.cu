// Right on a GPU and on the simulator: stage 04 written the way popular
// SGEMM worklogs write it, which many students copy.  The launcher names
// its configuration `dim3 gridDim(...)` and `dim3 blockDim(...)`: ordinary
// names to nvcc, which hide the built-in variables in that function (the
// simulator's build respells them, common/sim/rewrite_launch.c).  The
// kernel takes M, N, K, alpha and beta, runs a 1-D block of TILE * TILE
// threads, advances its A, B and C pointers, and is a template on the tile
// width.
#include "lab.h"

#ifndef TILE
#define TILE 32
#endif
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const uint BLOCKSIZE>
__global__ void sgemm_shared_mem_block(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                       float *C)
{
    const uint cRow = blockIdx.x;
    const uint cCol = blockIdx.y;
    __shared__ float As[BLOCKSIZE * BLOCKSIZE];
    __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];
    const uint threadCol = threadIdx.x % BLOCKSIZE;
    const uint threadRow = threadIdx.x / BLOCKSIZE;

    A += cRow * BLOCKSIZE * K;
    B += cCol * BLOCKSIZE;
    C += cRow * BLOCKSIZE * N + cCol * BLOCKSIZE;
    const int rowsLeft = M - (int)(cRow * BLOCKSIZE), colsLeft = N - (int)(cCol * BLOCKSIZE);

    float tmp = 0.0;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
        As[threadRow * BLOCKSIZE + threadCol] =
            ((int)threadRow < rowsLeft && bkIdx + (int)threadCol < K) ? A[threadRow * K + threadCol] : 0.0f;
        Bs[threadRow * BLOCKSIZE + threadCol] =
            (bkIdx + (int)threadRow < K && (int)threadCol < colsLeft) ? B[threadRow * N + threadCol] : 0.0f;
        __syncthreads();
        A += BLOCKSIZE;
        B += BLOCKSIZE * N;
        for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx)
            tmp += As[threadRow * BLOCKSIZE + dotIdx] * Bs[dotIdx * BLOCKSIZE + threadCol];
        __syncthreads();
    }
    // As in a GEMM, C is read only when beta asks for it: the harness's C
    // holds no product yet (on the simulator, NaN).
    if ((int)threadRow < rowsLeft && (int)threadCol < colsLeft)
        C[threadRow * N + threadCol] = beta == 0.0f ? alpha * tmp : alpha * tmp + beta * C[threadRow * N + threadCol];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 gridDim(CEIL_DIV(n, TILE), CEIL_DIV(n, TILE));
    dim3 blockDim(TILE * TILE);
    sgemm_shared_mem_block<TILE><<<gridDim, blockDim>>>(n, n, n, 1.0f, A, B, 0.0f, C);
}
