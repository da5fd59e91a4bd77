// Bad kernel: no kernel of its own. cuBLAS multiplies, with the handle made
// once. Row-major C = A B is column-major C^T = B^T A^T, so cuBLAS is given
// B first. A lab's program links the CUDA runtime only: on a GPU this does
// not link, and on the simulator cublas_v2.h is missing; both must be the
// student's 0, said in words, never a kit limit sent on to a GPU.
#include "lab.h"
#include <cublas_v2.h>

void matmul(const float *A, const float *B, float *C, int n)
{
    static cublasHandle_t handle;
    if (!handle)
        cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n);
}
