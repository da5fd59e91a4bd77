// Right on a GPU and on the simulator: thread 0 of each block takes a
// scratch copy of the block's 16 rows of A from the device's heap (malloc
// in a kernel), which the block's threads fill and multiply from, and then
// gives it back.  The heap is raised from its 8 MiB to 128 MiB first (once:
// a GPU refuses to resize a heap in use); if a
// malloc still finds it full (blocks running at once each hold a copy) the
// block reads A directly, so the result never depends on the heap.
#include "lab.h"

#define ROWS 16

__global__ void rows_from_the_heap(const float *A, const float *B, float *C, int n)
{
    __shared__ float *rows;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        rows = (float *)malloc((size_t)ROWS * n * sizeof(float));
    __syncthreads();
    int r = blockIdx.y * ROWS + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    const float *a_row = A + (size_t)r * n;
    if (rows) {
        // The block's rows, copied once by its threads together.
        for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < ROWS * n; i += blockDim.x * blockDim.y) {
            int gr = blockIdx.y * ROWS + i / n;
            if (gr < n)
                rows[i] = A[(size_t)gr * n + i % n];
        }
        __syncthreads();
        a_row = rows + (size_t)threadIdx.y * n;
    }
    if (r < n && c < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k)
            sum += a_row[k] * B[k * n + c];
        C[r * n + c] = sum;
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0)
        free(rows);
}

void matmul(const float *A, const float *B, float *C, int n)
{
    // The heap's size may be set only before the first kernel that uses
    // it: matmul runs more than once, so only when it is not so already.
    size_t heap = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    if (heap < ((size_t)128 << 20))
        CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)128 << 20));
    dim3 block(16, ROWS), grid((n + 15) / 16, (n + ROWS - 1) / ROWS);
    rows_from_the_heap<<<grid, block>>>(A, B, C, n);
}
