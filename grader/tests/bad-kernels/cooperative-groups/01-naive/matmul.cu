// Right on a GPU: a stage 01 kernel that finds its element through
// cooperative groups (cooperative_groups.h), a header of CUDA's that the
// simulator does not stand in for.  The grader must say that the kit cannot
// build this file, and which backend can, never call it the student's
// compile error.
#include <cooperative_groups.h>

#include "lab.h"

namespace cg = cooperative_groups;

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int row = block.group_index().y * block.group_dim().y + block.thread_index().y;
    int col = block.group_index().x * block.group_dim().x + block.thread_index().x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
