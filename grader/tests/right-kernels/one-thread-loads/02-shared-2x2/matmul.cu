// Correct stage 02, the loads done by one thread: thread (0, 0) copies A
// and B into shared memory in a loop, a barrier, then each of the four
// threads computes its element from the shared copies.  Every element is
// still loaded once.  A compiler may turn such a copy loop into a call to
// memcpy; the check build must still see its loads and stores, or the
// copies would look like reads of memory nothing wrote.
#include "lab.h"

__global__ void one_loader(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[4], Bs[4];
    if (threadIdx.x == 0 && threadIdx.y == 0)
        for (int i = 0; i < n * n; i++) {
            As[i] = A[i];
            Bs[i] = B[i];
        }
    __syncthreads();
    int row = threadIdx.y, col = threadIdx.x;
    C[row * n + col] = As[row * n] * Bs[col] + As[row * n + 1] * Bs[n + col];
}

void matmul(const float *A, const float *B, float *C, int n)
{
    one_loader<<<1, dim3(2, 2)>>>(A, B, C, n);
    CUDA_CHECK(cudaGetLastError());
}
