// Right on a GPU: stage 04's tiles brought into shared memory by the block
// as a whole with cg::memcpy_async and waited for with cg::wait, from
// cooperative_groups/memcpy_async.h, a header the simulator does not stand
// in for.  Whole tiles only, a row at a time: a tile that reaches past the
// edge of A or B is loaded element by element, zero-filled.  The grader must call the
// header the kit's limit, never the student's compile error.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include "lab.h"

#ifndef TILE
#define TILE 32
#endif

namespace cg = cooperative_groups;

__global__ void tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    cg::thread_block block = cg::this_thread_block();
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    bool whole_rows = blockIdx.y * TILE + TILE <= n && blockIdx.x * TILE + TILE <= n;
    float sum = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        if (whole_rows && base + TILE <= n) {
            for (int r = 0; r < TILE; r++) {
                cg::memcpy_async(block, a_tile[r], A + (blockIdx.y * TILE + r) * n + base, sizeof a_tile[r]);
                cg::memcpy_async(block, b_tile[r], B + (base + r) * n + blockIdx.x * TILE, sizeof b_tile[r]);
            }
            cg::wait(block);
        } else {
            a_tile[ty][tx] = row < n && base + tx < n ? A[row * n + base + tx] : 0.0f;
            b_tile[ty][tx] = base + ty < n && col < n ? B[(base + ty) * n + col] : 0.0f;
            block.sync();
        }
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        block.sync();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tiled<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
