// Wrong on a GPU, right on a CPU: register tiling with a deep k-tile
// (BK = 64) whose two tiles are 32 KiB each.  Told by ptxas that 64 KiB of
// __shared__ arrays is too much, the student made the tile of B dynamic
// shared memory, and, each part being under 48 KiB, called no
// cudaFuncSetAttribute.  But the 48 KiB limit is on a block's static and
// dynamic shared memory together: a GPU refuses every launch ("invalid
// argument").  The right kernel of the same name makes the call.
#include "lab.h"

#define BM 128
#define BN 128
#define BK 64
#define TM 8
#define TN 8
#define THREADS_Y (BM / TM)
#define THREADS_X (BN / TN)
#define THREADS (THREADS_X * THREADS_Y)

__global__ void __launch_bounds__(THREADS) deep_k_tile(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK];              // 32 KiB, static
    extern __shared__ float b_tile[];         // BK x BN: 32 KiB, sized by the launch
    float (*Bs)[BN] = reinterpret_cast<float (*)[BN]>(b_tile);

    const int tid = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int thread_row = tid / THREADS_X, thread_col = tid % THREADS_X;
    float sum[TM][TN] = {};

    for (int k0 = 0; k0 < n; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            int r = e / BK, c = e % BK;
            int gr = block_row + r, gc = k0 + c;
            As[r][c] = (gr < n && gc < n) ? A[gr * n + gc] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            int r = e / BN, c = e % BN;
            int gr = k0 + r, gc = block_col + c;
            Bs[r][c] = (gr < n && gc < n) ? B[gr * n + gc] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i)
                a[i] = As[thread_row + i * THREADS_Y][k];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][thread_col + j * THREADS_X];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    sum[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) {
            int r = block_row + thread_row + i * THREADS_Y, c = block_col + thread_col + j * THREADS_X;
            if (r < n && c < n)
                C[r * n + c] = sum[i][j];
        }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    const int b_tile_bytes = BK * BN * (int)sizeof(float);
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    deep_k_tile<<<grid, THREADS, b_tile_bytes>>>(A, B, C, n);
}
