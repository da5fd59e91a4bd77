// launch_limits: what this CUDA runtime answers for launches past the limits
// the lessons teach (1024 threads per block, no empty grid), so a lesson can
// quote the real error rather than the one the documentation suggests.
//
//   nvcc -o launch_limits common/gpu/launch_limits.cu && ./launch_limits
#include <cstdio>

#include <cuda_runtime.h>

__global__ void nothing() {}

static void try_launch(dim3 grid, dim3 block)
{
    nothing<<<grid, block>>>();
    cudaError_t launch = cudaGetLastError();
    cudaError_t run = cudaDeviceSynchronize();
    printf("grid (%u,%u,%u) block (%u,%u,%u)\t%s\t%s\n", grid.x, grid.y, grid.z, block.x, block.y, block.z,
           cudaGetErrorName(launch), cudaGetErrorName(run));
}

int main()
{
    try_launch(dim3(1), dim3(32, 32));    // 1024 threads: the limit
    try_launch(dim3(1), dim3(33, 33));    // 1089 threads
    try_launch(dim3(1), dim3(1025));      // 1025 threads in x
    try_launch(dim3(1), dim3(128, 128));  // 16384 threads
    try_launch(dim3(0), dim3(32));        // an empty grid
    try_launch(dim3(1), dim3(0));         // an empty block
    return 0;
}
