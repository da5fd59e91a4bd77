// Includes a file of the kit that is not a student's header.  The cheat this
// rule stops is `#include "../grader/canary/01-naive/matmul.cu"` (or a
// solution): nvcc, with the kit's folders on its include path, compiles it
// and the stage passes on a GPU.  The simulator's build could not compile
// that (launches in an included file are not rewritten), so this case
// includes a header of the grader instead, by the same path through the
// kit's common/ folder, to show the rule on every backend: the kernel
// below is right, and its tests still score 0.
#include "lab.h"
#include "../grader/lab_exec_protocol.h"

__global__ void matmul_kernel(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
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
    matmul_kernel<<<grid, block>>>(A, B, C, n);
}
