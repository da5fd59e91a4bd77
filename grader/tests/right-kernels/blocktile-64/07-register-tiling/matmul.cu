// A right stage-07 kernel shaped unlike the solution: a 64x64 block tile
// stepped 8 columns of A (rows of B) at a time, a one-dimensional block of
// 256 threads, each keeping a 4x4 block of C in registers.  The A tile is
// stored transposed (As[k][m]) so each thread's four values of A sit side
// by side.  Loads are copied with a strided loop over the tile, not one
// element per thread.
#include "lab.h"

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define THREADS ((BM / TM) * (BN / TN))  // 256

__global__ void matmul_blocktile_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];

    int tid = threadIdx.x;
    int trow = tid / (BN / TN), tcol = tid % (BN / TN);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[TM][TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            int m = e / BK, k = e % BK;
            int r = row0 + m, c = k0 + k;
            As[k][m] = r < n && c < n ? A[r * n + c] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            int k = e / BN, c = e % BN;
            int r = k0 + k, cc = col0 + c;
            Bs[k][c] = r < n && cc < n ? B[r * n + cc] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; i++)
                a[i] = As[k][trow * TM + i];
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][tcol * TN + j];
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int r = row0 + trow * TM + i, c = col0 + tcol * TN + j;
            if (r < n && c < n)
                C[r * n + c] = acc[i][j];
        }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_blocktile_kernel<<<grid, THREADS>>>(A, B, C, n);
}
