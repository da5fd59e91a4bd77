// A right stage-08 kernel shaped unlike the solution: no cp.async and no
// warp tiles.  A 64x64 block tile, 16 columns of A (rows of B) per step,
// 256 threads each keeping a 4x4 block of C.  Double buffering goes through
// registers: while the products read one shared buffer, the next tile is
// loaded from global memory into registers and then stored into the other
// buffer, one barrier per tile.  Global loads and the products' shared
// reads are float4.  The A tile is stored transposed (As[k][m]); each warp
// loads 32 consecutive rows of A at one k, so its transposed stores land in
// 32 consecutive words: no bank conflict, at the price of a less coalesced
// load of A.
#include "lab.h"

#define BM 64
#define BN 64
#define BK 16
#define THREADS 256  // (BM / 4) * (BN / 4), each a 4x4 block of C

__device__ __forceinline__ float4 load4(const float *M, int n, int row, int col, bool vec)
{
    if (vec)
        return row < n && col < n ? *reinterpret_cast<const float4 *>(&M[row * n + col]) : make_float4(0, 0, 0, 0);
    float v[4];
    for (int i = 0; i < 4; i++)
        v[i] = row < n && col + i < n ? M[row * n + col + i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

__global__ void matmul_staged_kernel(const float *A, const float *B, float *C, int n)
{
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    int tid = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    bool vec = n % 4 == 0;
    // What this thread copies: one float4 of the A tile (row a_m, columns
    // a_k..a_k+3) and one of the B tile (row b_k, columns b_n..b_n+3).
    int a_m = tid % BM, a_k = (tid / BM) * 4;
    int b_k = tid / (BN / 4), b_n = (tid % (BN / 4)) * 4;
    // What it computes: rows c_m..c_m+3, columns c_n..c_n+3 of the tile.
    int c_m = (tid / (BN / 4)) * 4, c_n = (tid % (BN / 4)) * 4;

    float acc[4][4] = {};
    float4 a_next = make_float4(0, 0, 0, 0), b_next = a_next;
    auto store = [&](int buf) {
        As[buf][a_k + 0][a_m] = a_next.x;
        As[buf][a_k + 1][a_m] = a_next.y;
        As[buf][a_k + 2][a_m] = a_next.z;
        As[buf][a_k + 3][a_m] = a_next.w;
        *reinterpret_cast<float4 *>(&Bs[buf][b_k][b_n]) = b_next;
    };

    int tiles = (n + BK - 1) / BK;
    a_next = load4(A, n, row0 + a_m, a_k, vec);
    b_next = load4(B, n, b_k, col0 + b_n, vec);
    store(0);
    __syncthreads();
    for (int t = 0; t < tiles; t++) {
        int buf = t % 2;
        bool more = t + 1 < tiles;
        if (more) {
            int k0 = (t + 1) * BK;
            a_next = load4(A, n, row0 + a_m, k0 + a_k, vec);
            b_next = load4(B, n, k0 + b_k, col0 + b_n, vec);
        }
        for (int k = 0; k < BK; k++) {
            float4 a = *reinterpret_cast<const float4 *>(&As[buf][k][c_m]);
            float4 b = *reinterpret_cast<const float4 *>(&Bs[buf][k][c_n]);
            float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        // The other buffer was last read before the previous barrier.
        if (more)
            store(1 - buf);
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int r = row0 + c_m + i, c = col0 + c_n + j;
            if (r < n && c < n)
                C[r * n + c] = acc[i][j];
        }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM);
    matmul_staged_kernel<<<grid, THREADS>>>(A, B, C, n);
}
