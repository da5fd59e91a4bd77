// A right stage-09 kernel shaped unlike the solution: the B tile is stored
// transposed (one row per column of C) and loaded as a col_major matrix_b
// fragment.  A 128x64 block tile of 4 warps, each owning 64x32 (4x2
// fragments), BK = 16, static __shared__ double buffers filled through
// registers (the next tile is loaded while this one is multiplied), one barrier a step.
#include <mma.h>

#include "lab.h"

using namespace nvcuda;

constexpr int BLK_M = 128, BLK_N = 64, KW = 16;
constexpr int W_M = 64, W_N = 32;
constexpr int WARPS_N = BLK_N / W_N;                    // 2
constexpr int NUM_WARPS = (BLK_M / W_M) * WARPS_N;      // 4
constexpr int NUM_THREADS = NUM_WARPS * 32;             // 128
constexpr int FR_M = W_M / 16, FR_N = W_N / 16;         // 4 x 2
constexpr int SA = KW + 4;  // A rows: 8 rows of a load start 20 words apart, covering all banks
constexpr int SB = KW + 4;  // B^T rows, the same for the col_major fragment's 8 columns
constexpr int A_PER_THREAD = BLK_M * KW / NUM_THREADS;  // 16
constexpr int B_PER_THREAD = KW * BLK_N / NUM_THREADS;  // 8

typedef wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> FragA;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> FragB;
typedef wmma::fragment<wmma::accumulator, 16, 16, 8, float> FragC;

// Global -> registers for the step starting at k0.  VEC (n % 4 == 0): float4
// loads, a float4 all inside or all outside the matrix.  Outside: zeros.
template <bool VEC>
__device__ void fetch(float (&ra)[A_PER_THREAD], float (&rb)[B_PER_THREAD], const float *A, const float *B, int n,
                      int row0, int col0, int k0)
{
    const int tid = threadIdx.x;
    if (VEC) {
#pragma unroll
        for (int p = 0; p < A_PER_THREAD / 4; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / (KW / 4), c = (v % (KW / 4)) * 4;
            float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
            if (row0 + r < n && k0 + c < n)
                x = *reinterpret_cast<const float4 *>(&A[(row0 + r) * n + k0 + c]);
            ra[4 * p] = x.x; ra[4 * p + 1] = x.y; ra[4 * p + 2] = x.z; ra[4 * p + 3] = x.w;
        }
#pragma unroll
        for (int p = 0; p < B_PER_THREAD / 4; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / (BLK_N / 4), c = (v % (BLK_N / 4)) * 4;
            float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
            if (k0 + r < n && col0 + c < n)
                x = *reinterpret_cast<const float4 *>(&B[(k0 + r) * n + col0 + c]);
            rb[4 * p] = x.x; rb[4 * p + 1] = x.y; rb[4 * p + 2] = x.z; rb[4 * p + 3] = x.w;
        }
    } else {
#pragma unroll
        for (int p = 0; p < A_PER_THREAD; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / KW, c = v % KW;
            ra[p] = (row0 + r < n && k0 + c < n) ? A[(row0 + r) * n + k0 + c] : 0.f;
        }
#pragma unroll
        for (int p = 0; p < B_PER_THREAD; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / BLK_N, c = v % BLK_N;
            rb[p] = (k0 + r < n && col0 + c < n) ? B[(k0 + r) * n + col0 + c] : 0.f;
        }
    }
}

// Registers -> one shared buffer: A as it is, B transposed (bt[col][k]).
template <bool VEC>
__device__ void stash(const float (&ra)[A_PER_THREAD], const float (&rb)[B_PER_THREAD], float (*as)[SA],
                      float (*bt)[SB])
{
    const int tid = threadIdx.x;
    if (VEC) {
#pragma unroll
        for (int p = 0; p < A_PER_THREAD / 4; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / (KW / 4), c = (v % (KW / 4)) * 4;
            *reinterpret_cast<float4 *>(&as[r][c]) = make_float4(ra[4 * p], ra[4 * p + 1], ra[4 * p + 2], ra[4 * p + 3]);
        }
#pragma unroll
        for (int p = 0; p < B_PER_THREAD / 4; ++p) {
            const int v = tid + p * NUM_THREADS, r = v / (BLK_N / 4), c = (v % (BLK_N / 4)) * 4;
            for (int q = 0; q < 4; ++q)
                bt[c + q][r] = rb[4 * p + q];
        }
    } else {
#pragma unroll
        for (int p = 0; p < A_PER_THREAD; ++p) {
            const int v = tid + p * NUM_THREADS;
            as[v / KW][v % KW] = ra[p];
        }
#pragma unroll
        for (int p = 0; p < B_PER_THREAD; ++p) {
            const int v = tid + p * NUM_THREADS;
            bt[v % BLK_N][v / BLK_N] = rb[p];
        }
    }
}

template <bool VEC>
__global__ void __launch_bounds__(NUM_THREADS) wmma_colb_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(128) float as[2][BLK_M][SA];
    __shared__ __align__(128) float bt[2][BLK_N][SB];
    __shared__ __align__(128) float scratch[NUM_WARPS][256];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = (warp / WARPS_N) * W_M, wn = (warp % WARPS_N) * W_N;
    const int row0 = blockIdx.y * BLK_M, col0 = blockIdx.x * BLK_N;

    FragC acc[FR_M][FR_N];
#pragma unroll
    for (int i = 0; i < FR_M; ++i)
#pragma unroll
        for (int j = 0; j < FR_N; ++j)
            wmma::fill_fragment(acc[i][j], 0.f);

    float ra[A_PER_THREAD], rb[B_PER_THREAD];
    fetch<VEC>(ra, rb, A, B, n, row0, col0, 0);
    stash<VEC>(ra, rb, as[0], bt[0]);
    __syncthreads();

    const int steps = (n + KW - 1) / KW;
    for (int s = 0; s < steps; ++s) {
        const int cur = s & 1;
        if (s + 1 < steps)
            fetch<VEC>(ra, rb, A, B, n, row0, col0, (s + 1) * KW);

#pragma unroll
        for (int kk = 0; kk < KW; kk += 8) {
            FragA fa[FR_M];
            FragB fb[FR_N];
#pragma unroll
            for (int i = 0; i < FR_M; ++i) {
                wmma::load_matrix_sync(fa[i], &as[cur][wm + 16 * i][kk], SA);
                for (int e = 0; e < fa[i].num_elements; ++e)
                    fa[i].x[e] = wmma::__float_to_tf32(fa[i].x[e]);
            }
#pragma unroll
            for (int j = 0; j < FR_N; ++j) {
                // element (k, c) of the 8x16 piece of B sits at bt[wn + 16j + c][kk + k]
                wmma::load_matrix_sync(fb[j], &bt[cur][wn + 16 * j][kk], SB);
                for (int e = 0; e < fb[j].num_elements; ++e)
                    fb[j].x[e] = wmma::__float_to_tf32(fb[j].x[e]);
            }
#pragma unroll
            for (int i = 0; i < FR_M; ++i)
#pragma unroll
                for (int j = 0; j < FR_N; ++j)
                    wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }

        if (s + 1 < steps)
            stash<VEC>(ra, rb, as[cur ^ 1], bt[cur ^ 1]);
        __syncthreads();
    }

    float *mine = scratch[warp];
    for (int i = 0; i < FR_M; ++i)
        for (int j = 0; j < FR_N; ++j) {
            const int r0 = row0 + wm + 16 * i, c0 = col0 + wn + 16 * j;
            if (r0 >= n || c0 >= n)
                continue;
            if (VEC && r0 + 16 <= n && c0 + 16 <= n) {
                wmma::store_matrix_sync(C + (size_t)r0 * n + c0, acc[i][j], n, wmma::mem_row_major);
                continue;
            }
            wmma::store_matrix_sync(mine, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                const int r = r0 + e / 16, c = c0 + e % 16;
                if (r < n && c < n)
                    C[r * n + c] = mine[e];
            }
            __syncwarp();
        }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BLK_N - 1) / BLK_N, (n + BLK_M - 1) / BLK_M);
    if (n % 4 == 0)
        wmma_colb_kernel<true><<<grid, NUM_THREADS>>>(A, B, C, n);
    else
        wmma_colb_kernel<false><<<grid, NUM_THREADS>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
