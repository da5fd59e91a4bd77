// A right kernel whose host code, each time it runs, tries to change files
// outside the folder the grader gives it: it creates one in a folder anyone
// may write (/tmp/matmul-kit-writes-outside, made so by the kit's test), and
// empties a file there by truncate(2), which opens nothing.  Graded as the
// instructor, such a program could as well rewrite the gradebook, another
// student's results or the instructor's own files.  Where the kernel has
// Landlock the grader confines the simulator's programs to their scratch
// folder: the kernel keeps its points and nothing outside changes.
#include <stdio.h>
#include <unistd.h>

#include "lab.h"

__global__ void naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul(const float *A, const float *B, float *C, int n)
{
    if (FILE *f = fopen("/tmp/matmul-kit-writes-outside/written", "w")) {
        fputs("written by the student's program\n", f);
        fclose(f);
    }
    if (truncate("/tmp/matmul-kit-writes-outside/keep", 0) != 0) {
        // refused, as it should be
    }
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    naive<<<grid, block>>>(A, B, C, n);
}
