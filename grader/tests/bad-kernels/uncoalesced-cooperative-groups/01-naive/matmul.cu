// Right on a GPU and on the simulator: one warp per element of C, found and
// summed through cooperative groups (cooperative_groups.h): the block's
// indices, a tile of 32 threads, and cg::reduce over it.  The simulator
// stands in for these groups, so every size test passes; but the lanes
// split k, so each reads B down a column, a sector per lane, and the
// kernel loses stage 01's coalescing test, and only it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "lab.h"

namespace cg = cooperative_groups;

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    // A block of 8 warps covers 8 elements of one row.
    int row = block.group_index().y;
    int col = block.group_index().x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= n || col >= n)
        return;  // the whole warp: its reduce below has no lane missing
    float part = 0.0f;
    for (int k = warp.thread_rank(); k < n; k += warp.size())
        part += A[row * n + k] * B[k * n + col];
    float sum = cg::reduce(warp, part, cg::plus<float>());
    if (warp.thread_rank() == 0)
        C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    const int warps_per_block = 8;
    dim3 block(32 * warps_per_block), grid((n + warps_per_block - 1) / warps_per_block, n);
    naive<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
