// Right on a GPU and on the simulator: stage 07 as the SGEMM worklogs write
// 2-D blocktiling (edge guards added): a kernel template on BM, BN, BK, TM
// and TN with __launch_bounds__ computed from them, a 1-D block, pointers
// advanced along K, flat shared arrays, register arrays, `uint` indices,
// and an assert() on the block's size.  The launcher names its
// configuration gridDim and blockDim.
#include <cassert>
#include "lab.h"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    sgemm2DBlocktiling(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const uint totalResultsBlocktile = BM * BN;
    const uint numThreadsBlocktile = totalResultsBlocktile / (TM * TN);
    assert(numThreadsBlocktile == blockDim.x);
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const int rowsLeft = M - (int)cRow * BM, colsLeft = N - (int)cCol * BN;

    const uint innerRowA = threadIdx.x / BK;
    const uint innerColA = threadIdx.x % BK;
    const uint strideA = numThreadsBlocktile / BK;
    const uint innerRowB = threadIdx.x / BN;
    const uint innerColB = threadIdx.x % BN;
    const uint strideB = numThreadsBlocktile / BN;

    float threadResults[TM * TN] = {0.0};
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (uint loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
            int r = innerRowA + loadOffset, c = innerColA;
            As[r * BK + c] = (r < rowsLeft && bkIdx + c < K) ? A[r * K + c] : 0.0f;
        }
        for (uint loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
            int r = innerRowB + loadOffset, c = innerColB;
            Bs[r * BN + c] = (bkIdx + r < K && c < colsLeft) ? B[r * N + c] : 0.0f;
        }
        __syncthreads();
        A += BK;
        B += BK * N;
#pragma unroll
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (uint i = 0; i < TM; ++i)
                regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
            for (uint i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }
    for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
            int r = threadRow * TM + resIdxM, c = threadCol * TN + resIdxN;
            if (r < rowsLeft && c < colsLeft)
                C[r * N + c] = alpha * threadResults[resIdxM * TN + resIdxN] + beta;
        }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    const uint BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(n, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(n, n, n, 1.0f, A, B, 0.0f, C);
}
