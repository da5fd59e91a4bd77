// Right on a GPU: a grid-stride loop over the elements of C whose stride
// and start come from the grid as a cooperative group (cg::this_grid()),
// which the simulator does not stand in for (its barrier needs a
// cooperative launch).  The grader must call that the kit's limit and name
// the backend that can grade it, never the student's compile error.
#include <cooperative_groups.h>

#include "lab.h"

namespace cg = cooperative_groups;

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    auto grid = cg::this_grid();
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n * n; i += grid.num_threads()) {
        int row = (int)(i / n), col = (int)(i % n);
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];
        C[i] = sum;
    }
}

void matmul(const float *A, const float *B, float *C, int n)
{
    naive<<<64, 256>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
