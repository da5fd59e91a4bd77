/* test_simulator, part: launches: configurations the runtime refuses, the
 * last-error rules, dynamic and opted-in shared memory, the limits nvcc's
 * numbers set, thread indexing, arguments, events, templated and namespaced
 * kernels, streams and the runtime's identity.
 */
#include "simulator_tests.h"

// ------------------------------------------------------ launch configuration

START_TEST(bad_configurations_are_refused)
{
    struct config { dim3 grid, block; const char *what; };
    const config bad[] = {
        {dim3(1), dim3(1025), "1025 threads"},
        {dim3(1), dim3(32, 32, 2), "32x32x2 = 2048 threads"},
        {dim3(1), dim3(2048), "2048 threads"},
        {dim3(0), dim3(32), "zero grid"},
        {dim3(4, 0), dim3(32), "zero grid.y"},
        {dim3(2, 2, 0), dim3(32), "zero grid.z"},
        {dim3(1), dim3(0), "zero block"},
        {dim3(1), dim3(32, 0), "zero block.y"},
        {dim3(1), dim3(1, 1, 65), "block.z 65"},
        {dim3(1, 65536), dim3(1), "grid.y 65536"},
        {dim3(1, 1, 65536), dim3(1), "grid.z 65536"},
        {dim3(2147483648u), dim3(1), "grid.x 2^31"},
    };
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    for (const config &c : bad) {
        stderr_capture cap;
        set_flag<<<c.grid, c.block>>>(flag);
        std::string said = cap.finish();
        cudaError_t e = cudaGetLastError();
        ck_assert_msg(e == cudaErrorInvalidConfiguration, "%s: cudaGetLastError() gave %s", c.what,
                      cudaGetErrorName(e));
        ASSERT_CONTAINS(said, "refused");
        ck_assert_msg(read_flag(flag) == 0, "%s: the kernel ran", c.what);
        CUDA_IS(cudaSuccess, cudaGetLastError());      // cleared
        CUDA_IS(cudaSuccess, cudaDeviceSynchronize());  // and not sticky
    }
    // A good launch afterwards runs; so do the largest legal blocks.
    set_flag<<<1, 32>>>(flag);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    ck_assert_int_eq(read_flag(flag), 1);
    const dim3 good_blocks[] = {dim3(1024), dim3(32, 32), dim3(1, 1024), dim3(16, 1, 64), dim3(1, 1, 64)};
    for (const dim3 &b : good_blocks) {
        CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
        set_flag<<<dim3(2, 1, 2), b>>>(flag);
        CUDA_OK(cudaGetLastError());
        ck_assert_msg(read_flag(flag) == 1, "block (%u,%u,%u) did not run", b.x, b.y, b.z);
    }
    CUDA_OK(cudaFree(flag));
}
END_TEST

START_TEST(last_error_is_cleared_by_get_not_peek)
{
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    stderr_capture cap;
    set_flag<<<1, 1025>>>(flag);
    cap.finish();
    CUDA_IS(cudaErrorInvalidConfiguration, cudaPeekAtLastError());
    CUDA_IS(cudaErrorInvalidConfiguration, cudaPeekAtLastError());
    CUDA_IS(cudaErrorInvalidConfiguration, cudaGetLastError());
    CUDA_IS(cudaSuccess, cudaGetLastError());
    CUDA_IS(cudaSuccess, cudaPeekAtLastError());
    // A successful launch does not clear an earlier error either.
    stderr_capture cap2;
    set_flag<<<dim3(0), 1>>>(flag);
    cap2.finish();
    set_flag<<<1, 1>>>(flag);
    ck_assert_int_eq(read_flag(flag), 1);
    CUDA_IS(cudaErrorInvalidConfiguration, cudaGetLastError());
    CUDA_IS(cudaSuccess, cudaGetLastError());
}
END_TEST

// cudaLaunchKernel's C++ form: each argument read through its pointer as the
// kernel's parameter type (a const pointer, an int, a struct by value), the
// dynamic shared bytes passed on, and this launch's error returned.
struct scale_by { float factor; int offset; };

__global__ void scaled_copy(const int *in, int *out, int n, scale_by s)
{
    extern __shared__ int staged[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n)
        out[i] = (int)(staged[threadIdx.x] * s.factor) + s.offset;
}

START_TEST(cuda_launch_kernel_reads_arguments_by_the_kernels_types)
{
    const int n = 300, threads = 128;
    std::vector<int> in(n);
    for (int i = 0; i < n; i++)
        in[i] = i - 7;
    int *d_in = dev_alloc<int>(n), *d_out = dev_alloc<int>(n);
    to_device(d_in, in);
    const int *in_arg = d_in;
    int count = n;
    scale_by s = {3.0f, 5};
    void *args[] = {&in_arg, &d_out, &count, &s};
    CUDA_OK(cudaLaunchKernel(scaled_copy, dim3((n + threads - 1) / threads), dim3(threads), args,
                             threads * sizeof(int), nullptr));
    CUDA_OK(cudaGetLastError());
    std::vector<int> out = to_host(d_out, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i] == 3 * in[i] + 5, "out[%d] = %d, want %d", i, out[i], 3 * in[i] + 5);
    // A refused launch: its error returned, and left for cudaGetLastError.
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidConfiguration, cudaLaunchKernel(scaled_copy, dim3(1), dim3(1025), args));
    std::string said = cap.finish();
    ASSERT_CONTAINS(said, "refused: more than 1024 threads per block");
    CUDA_IS(cudaErrorInvalidConfiguration, cudaGetLastError());
    CUDA_IS(cudaSuccess, cudaGetLastError());
}
END_TEST

// `extern __shared__` inside a kernel and at file scope (the rewriter turns
// them into a pointer and a macro on the simulator's buffer).
extern __shared__ float whole_file_dynamic[];

__global__ void reverse_dynamic(const int *in, int *out, float *first_read)
{
    extern __shared__ int dyn[];
    unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    if (t == 0)
        first_read[blockIdx.x] = whole_file_dynamic[n];  // past what any thread writes: never written
    dyn[t] = in[base + t];
    __syncthreads();
    out[base + t] = dyn[n - 1 - t];
}

START_TEST(dynamic_shared_memory_is_per_block)
{
    const int blocks = 5, n = 256;
    std::vector<int> in(blocks * n);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (int)(i * 5 + 1);
    int *d_in = dev_alloc<int>(in.size()), *d_out = dev_alloc<int>(in.size());
    float *d_first = dev_alloc<float>(blocks);
    to_device(d_in, in);
    reverse_dynamic<<<blocks, n, (n + 1) * sizeof(int)>>>(d_in, d_out, d_first);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, in.size());
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++)
            ck_assert_msg(out[b * n + t] == in[b * n + n - 1 - t], "block %d thread %d: %d, want %d", b, t,
                          out[b * n + t], in[b * n + n - 1 - t]);
    // Every block starts from the poison of new shared memory, as static
    // __shared__ arrays do, never from another block's values.
    std::vector<float> first = to_host(d_first, blocks);
    for (int b = 0; b < blocks; b++) {
        uint32_t bits;
        memcpy(&bits, &first[b], sizeof bits);
        ck_assert_msg((bits & 0x7FFFFFFFu) == NAN_NEW_SHARED_MEMORY_BITS, "block %d read %08x", b, bits);
    }
}
END_TEST

START_TEST(dynamic_shared_memory_over_48k_is_refused)
{
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    stderr_capture cap;
    set_flag<<<1, 32, 48 * 1024 + 4>>>(flag);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    ASSERT_CONTAINS(said, "dynamic shared memory");
    ck_assert_int_eq(read_flag(flag), 0);
    set_flag<<<1, 32, 48 * 1024>>>(flag);
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
    // More after the opt-in a GPU asks for, up to 227 KiB (compute 9.0).
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    CUDA_OK(cudaFuncSetAttribute(set_flag, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    set_flag<<<1, 32, 100 * 1024>>>(flag);
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
    stderr_capture cap2;
    CUDA_IS(cudaErrorInvalidValue,
            cudaFuncSetAttribute(set_flag, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 4));
    cap2.finish();
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
}
END_TEST

// What nvcc would have said of the kernels below (kernel_resources.h): a
// lab's build writes this table from ptxas's report; here it is written by
// hand, so that the checks a GPU makes before it launches are tested
// without nvcc.
__global__ void flag_with_static_shared(int *flag) { *flag = 1; }
__global__ void flag_with_opt_in_elsewhere(int *flag) { *flag = 1; }
__global__ void flag_with_128_registers(int *flag) { *flag = 1; }
__global__ void flag_with_launch_bounds(int *flag) { *flag = 1; }
__global__ void flag_with_40_registers(int *flag) { *flag = 1; }
__global__ void flag_with_80_registers(int *flag) { *flag = 1; }
__global__ void flag_with_255_registers(int *flag) { *flag = 1; }

extern "C" const sim::kernel_resources sim_kernel_resources[] = {
    {reinterpret_cast<const void *>(&flag_with_static_shared), 32, "flag_with_static_shared", "sm_90", 0, 40960, 0},
    {reinterpret_cast<const void *>(&flag_with_opt_in_elsewhere), 32, "flag_with_opt_in_elsewhere", "sm_90", 0, 0, 0},
    {reinterpret_cast<const void *>(&flag_with_128_registers), 128, "flag_with_128_registers", "sm_90", 0, 0, 0},
    {reinterpret_cast<const void *>(&flag_with_launch_bounds), 32, "flag_with_launch_bounds", "sm_90", 256, 0, 0},
    {reinterpret_cast<const void *>(&flag_with_40_registers), 40, "flag_with_40_registers", "sm_90", 0, 0, 0},
    {reinterpret_cast<const void *>(&flag_with_80_registers), 80, "flag_with_80_registers", "sm_90", 0, 0, 0},
    {reinterpret_cast<const void *>(&flag_with_255_registers), 255, "flag_with_255_registers", "sm_90", 0, 0, 0},
    {nullptr, 0, nullptr, nullptr, 0, 0, 0}};

// Static and dynamic shared memory together: 48 KiB, unless the kernel
// opted in; then up to 227 KiB in all.
START_TEST(static_and_dynamic_shared_memory_share_one_limit)
{
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    flag_with_static_shared<<<1, 32, 8 * 1024>>>(flag);  // 40 + 8 KiB: exactly 48
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);

    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    stderr_capture cap;
    flag_with_static_shared<<<1, 32, 8 * 1024 + 4>>>(flag);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 0);
    ASSERT_CONTAINS(said, "declares 40960 bytes of __shared__ arrays: 49156 in all");
    ASSERT_CONTAINS(said, "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 8196)");

    CUDA_OK(cudaFuncSetAttribute(flag_with_static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 16 * 1024));
    flag_with_static_shared<<<1, 32, 16 * 1024>>>(flag);
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
    stderr_capture cap2;
    flag_with_static_shared<<<1, 32, 16 * 1024 + 4>>>(flag);
    said = cap2.finish();
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    ASSERT_CONTAINS(said, "more than the 16384 that cudaFuncSetAttribute");

    // The opt-in itself is refused past 227 KiB with the static arrays.
    stderr_capture cap3;
    CUDA_IS(cudaErrorInvalidValue, cudaFuncSetAttribute(flag_with_static_shared,
                                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                        227 * 1024 - 40960 + 4));
    said = cap3.finish();
    ASSERT_CONTAINS(said, "40960 bytes of __shared__ arrays");
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    CUDA_OK(cudaFuncSetAttribute(flag_with_static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 227 * 1024 - 40960));
}
END_TEST

#ifdef SIM_OCCUPANCY_API
// The occupancy API answers from the same table, by the toolkit's occupancy
// calculator, for the GPU the simulator presents (an H100: 64 warps, 32
// blocks, four register files of 16384 and 228 KiB of shared memory an SM).
START_TEST(occupancy_api_answers_from_nvccs_numbers)
{
    cudaFuncAttributes a;
    CUDA_OK(cudaFuncGetAttributes(&a, flag_with_128_registers));
    ck_assert_int_eq(a.numRegs, 128);
    ck_assert_int_eq(a.maxThreadsPerBlock, 512);  // 16 warps of 4096 registers fill a block's 65536
    ck_assert_int_eq(a.ptxVersion, 90);
    CUDA_OK(cudaFuncGetAttributes(&a, flag_with_launch_bounds));
    ck_assert_int_eq(a.maxThreadsPerBlock, 256);
    CUDA_OK(cudaFuncGetAttributes(&a, flag_with_static_shared));
    ck_assert_uint_eq(a.sharedSizeBytes, 40960);
    ck_assert_int_eq(a.maxDynamicSharedSizeBytes, 48 * 1024 - 40960);
    ck_assert_int_eq(a.preferredShmemCarveout, -1);

    int blocks = -1;
    // A register file holds 4 warps of 4096 registers: 16 warps an SM, two blocks of 8.
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_with_128_registers, 256, 0));
    ck_assert_int_eq(blocks, 2);
    // 40 KiB of __shared__ arrays and the 1 KiB the system keeps a block: 5 in 228 KiB.
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_with_static_shared, 32, 0));
    ck_assert_int_eq(blocks, 5);
    // More dynamic shared memory than the kernel may ask for: none fits.
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_with_static_shared, 32, 8192 + 4));
    ck_assert_int_eq(blocks, 0);
    CUDA_OK(cudaFuncSetAttribute(flag_with_static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    CUDA_OK(cudaFuncGetAttributes(&a, flag_with_static_shared));
    ck_assert_int_eq(a.maxDynamicSharedSizeBytes, 64 * 1024);
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_with_static_shared, 32, 64 * 1024));
    ck_assert_int_eq(blocks, 2);  // 40 + 64 + 1 KiB a block

    // The largest block within the bound keeps all 2048 threads: 8 blocks of 256 an SM, on 132 SMs.
    int grid = 0, block = 0;
    CUDA_OK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, flag_with_launch_bounds));
    ck_assert_int_eq(block, 256);
    ck_assert_int_eq(grid, 8 * 132);
    // 128 registers: 512 threads, the largest block, keep the 16 warps the registers allow.
    CUDA_OK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, flag_with_128_registers, 0, 1000));
    ck_assert_int_eq(block, 512);
    ck_assert_int_eq(grid, 132);
    CUDA_IS(cudaErrorInvalidValue, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_with_launch_bounds, 0, 0));
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());

    // A kernel nvcc's numbers do not name: the kit's limit, said so.
    stderr_capture cap;
    CUDA_IS(cudaErrorInvalidDeviceFunction, cudaFuncGetAttributes(&a, set_flag));
    ASSERT_CONTAINS(cap.finish(), "kit limit: cudaFuncGetAttributes: the simulator has no numbers from nvcc");
    CUDA_IS(cudaErrorInvalidDeviceFunction, cudaGetLastError());
}
END_TEST

// The launch's check of a block's registers (launch_limits.cpp, worked by
// hand for builds without the calculator) and CUDA's occupancy calculator
// agree on every block size: a block is refused exactly when the
// calculator puts none of it on an SM.
START_TEST(launch_refusal_agrees_with_the_occupancy_calculator)
{
    const void *kernels[] = {
        reinterpret_cast<const void *>(&flag_with_40_registers), reinterpret_cast<const void *>(&flag_with_80_registers),
        reinterpret_cast<const void *>(&flag_with_128_registers),
        reinterpret_cast<const void *>(&flag_with_255_registers)};
    int refusals = 0;
    for (const void *kernel : kernels)
        for (int threads = 1; threads <= 1024; threads++) {
            int blocks = -1;
            CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
            bool refused = !sim::refused_for_resources(kernel, (unsigned long)threads).empty();
            ck_assert_msg(refused == (blocks == 0), "%s at %d threads: the launch %s, the calculator fits %d blocks",
                          sim::resources_of(kernel)->name, threads, refused ? "is refused" : "goes ahead", blocks);
            refusals += refused;
        }
    ck_assert_int_gt(refusals, 0);
}
#endif

// One kernel's opt-in (one instance of a template, say) is not another's.
START_TEST(shared_memory_opt_in_is_per_kernel)
{
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    CUDA_OK(cudaFuncSetAttribute(set_flag, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    stderr_capture cap;
    flag_with_opt_in_elsewhere<<<1, 32, 64 * 1024>>>(flag);
    std::string said = cap.finish();
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 0);
    ASSERT_CONTAINS(said, "more than the 49152 a block may have");
    set_flag<<<1, 32, 64 * 1024>>>(flag);
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
}
END_TEST

// A block's registers: 65536, allotted a warp at a time and for a multiple
// of four warps (one per register file of an SM); and no more threads than
// the kernel's __launch_bounds__.
START_TEST(blocks_over_their_kernels_resources_are_refused)
{
    int *flag = dev_alloc<int>(1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    flag_with_128_registers<<<1, 512>>>(flag);  // 16 warps of 4096 registers
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    stderr_capture cap;
    flag_with_128_registers<<<1, 513>>>(flag);  // a 17th warp
    std::string said = cap.finish();
    CUDA_IS(cudaErrorLaunchOutOfResources, cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 0);
    // 17 warps take registers as 20 would: one register file holds 5 of them.
    ASSERT_CONTAINS(said, "needs 81920 registers (nvcc gave it 128 a thread for sm_90; its warps are dealt");

    flag_with_launch_bounds<<<1, 256>>>(flag);
    CUDA_OK(cudaGetLastError());
    ck_assert_int_eq(read_flag(flag), 1);
    stderr_capture cap2;
    flag_with_launch_bounds<<<1, dim3(16, 17)>>>(flag);
    said = cap2.finish();
    CUDA_IS(cudaErrorLaunchOutOfResources, cudaGetLastError());
    ASSERT_CONTAINS(said, "a block of 272 threads of flag_with_launch_bounds, whose __launch_bounds__ allow at most 256");
}
END_TEST

// --------------------------------------------------------- thread indexing

enum { REC_COUNT, REC_TX, REC_TY, REC_TZ, REC_BX, REC_BY, REC_BZ, REC_BAD, REC_FIELDS };

__global__ void record_ids(int *rec, dim3 want_grid, dim3 want_block)
{
    unsigned tpb = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned long b = blockIdx.x + (unsigned long)gridDim.x * (blockIdx.y + (unsigned long)gridDim.y * blockIdx.z);
    int *r = rec + (b * tpb + t) * REC_FIELDS;
    atomicAdd(&r[REC_COUNT], 1);
    r[REC_TX] = (int)threadIdx.x;
    r[REC_TY] = (int)threadIdx.y;
    r[REC_TZ] = (int)threadIdx.z;
    r[REC_BX] = (int)blockIdx.x;
    r[REC_BY] = (int)blockIdx.y;
    r[REC_BZ] = (int)blockIdx.z;
    bool bad = blockDim.x != want_block.x || blockDim.y != want_block.y || blockDim.z != want_block.z ||
               gridDim.x != want_grid.x || gridDim.y != want_grid.y || gridDim.z != want_grid.z ||
               threadIdx.x >= blockDim.x || threadIdx.y >= blockDim.y || threadIdx.z >= blockDim.z ||
               blockIdx.x >= gridDim.x || blockIdx.y >= gridDim.y || blockIdx.z >= gridDim.z;
    r[REC_BAD] = bad;
}

// Launches record_ids over grid x block and checks that every thread ran
// exactly once and saw its own indices and the launch's dimensions.
static void check_indexing(dim3 grid, dim3 block)
{
    size_t tpb = (size_t)block.x * block.y * block.z;
    size_t total = tpb * grid.x * grid.y * grid.z;
    int *rec = dev_alloc<int>(total * REC_FIELDS);
    CUDA_OK(cudaMemset(rec, 0, total * REC_FIELDS * sizeof(int)));
    record_ids<<<grid, block>>>(rec, grid, block);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> h = to_host(rec, total * REC_FIELDS);
    for (size_t g = 0; g < total; g++) {
        const int *r = &h[g * REC_FIELDS];
        size_t b = g / tpb, t = g % tpb;
        int want[REC_FIELDS] = {1,
                                (int)(t % block.x),
                                (int)(t / block.x % block.y),
                                (int)(t / ((size_t)block.x * block.y)),
                                (int)(b % grid.x),
                                (int)(b / grid.x % grid.y),
                                (int)(b / ((size_t)grid.x * grid.y)),
                                0};
        for (int k = 0; k < REC_FIELDS; k++)
            ck_assert_msg(r[k] == want[k],
                          "grid (%u,%u,%u) block (%u,%u,%u): thread %zu field %d is %d, want %d "
                          "(fields: count, tx, ty, tz, bx, by, bz, bad dims)",
                          grid.x, grid.y, grid.z, block.x, block.y, block.z, g, k, r[k], want[k]);
    }
    CUDA_OK(cudaFree(rec));
}

START_TEST(indexing_1d) { check_indexing(dim3(37), dim3(129)); check_indexing(dim3(1), dim3(1)); }
END_TEST

START_TEST(indexing_2d) { check_indexing(dim3(5, 3), dim3(16, 8)); check_indexing(dim3(1, 7), dim3(3, 33)); }
END_TEST

START_TEST(indexing_3d) { check_indexing(dim3(3, 2, 4), dim3(8, 4, 2)); check_indexing(dim3(2, 3, 2), dim3(4, 4, 4)); }
END_TEST

// Blocks of the same size but another shape, one launch after another: the
// scheduler must not keep the previous launch's thread indices.
START_TEST(indexing_same_size_other_shape)
{
    const dim3 shapes[] = {dim3(8, 4, 2), dim3(4, 8, 2), dim3(4, 4, 4), dim3(64), dim3(2, 2, 16), dim3(2, 16, 2),
                           dim3(1, 64)};
    for (const dim3 &s : shapes)
        check_indexing(dim3(3, 2), s);
}
END_TEST

// ------------------------------------------------------ kernel arguments

struct pair_arg { int a, b; };

// Every thread changes its parameters, then (after a barrier, so all have
// changed theirs) writes what it sees: each must see only its own changes.
__global__ void modify_params(int v, pair_arg s, int *out)
{
    unsigned t = threadIdx.x;
    v += (int)t + 1;
    s.a += 1;
    s.b *= 2;
    int *mine = out + 3 * (blockIdx.x * blockDim.x + t);
    out = nullptr;
    __syncthreads();
    mine[0] = v;
    mine[1] = s.a;
    mine[2] = s.b;
    (void)out;
}

START_TEST(arguments_are_per_thread_copies)
{
    const int blocks = 3, threads = 64, n = blocks * threads;
    int *out = dev_alloc<int>(3 * n);
    int v = 100;
    pair_arg s = {10, 3};
    for (int launch = 0; launch < 2; launch++) {
        CUDA_OK(cudaMemset(out, 0, 3 * n * sizeof(int)));
        modify_params<<<blocks, threads>>>(v, s, out);
        CUDA_OK(cudaGetLastError());
        std::vector<int> h = to_host(out, 3 * n);
        for (int i = 0; i < n; i++) {
            int t = i % threads;
            ck_assert_msg(h[3 * i] == 100 + t + 1, "thread %d saw v = %d, want %d", i, h[3 * i], 100 + t + 1);
            ck_assert_int_eq(h[3 * i + 1], 11);
            ck_assert_int_eq(h[3 * i + 2], 6);
        }
    }
    ck_assert_int_eq(v, 100);
    ck_assert_int_eq(s.a, 10);
    CUDA_OK(cudaFree(out));
}
END_TEST

// ------------------------------------------------------------------ events

__global__ void busy(float *out, int iters)
{
    float x = (float)threadIdx.x;
    for (int i = 0; i < iters; i++)
        x = x * 0.999f + 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

START_TEST(event_elapsed_time)
{
    cudaEvent_t start, stop, never;
    CUDA_OK(cudaEventCreate(&start));
    CUDA_OK(cudaEventCreate(&stop));
    CUDA_OK(cudaEventCreate(&never));
    float *out = dev_alloc<float>(8 * 256);
    CUDA_OK(cudaEventRecord(start));
    busy<<<8, 256>>>(out, 1000);
    CUDA_OK(cudaEventRecord(stop, 0));
    CUDA_OK(cudaEventSynchronize(stop));
    float ms = -1.0f;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    ck_assert_msg(ms >= 0.0f, "elapsed time %g ms", ms);
    ck_assert_msg(ms < 60000.0f, "elapsed time %g ms", ms);
    float unset = -7.0f;
    ck_assert_int_ne(cudaEventElapsedTime(&unset, start, never), cudaSuccess);
    ck_assert_int_ne(cudaEventElapsedTime(&unset, never, stop), cudaSuccess);
    ck_assert_int_ne(cudaEventElapsedTime(nullptr, start, stop), cudaSuccess);
    cudaGetLastError();
    CUDA_OK(cudaEventDestroy(start));
    CUDA_OK(cudaEventDestroy(stop));
    CUDA_OK(cudaEventDestroy(never));
}
END_TEST

// ------------------------------------------------------------ launch forms

template <int K>
__global__ void fill(int *p)
{
    p[threadIdx.x] = K * (int)threadIdx.x;
}

template <typename T, int N>
__global__ void scale_by(T *p, T by)
{
    p[threadIdx.x] = (T)N * by * (T)threadIdx.x;
}

namespace ns {
__global__ void kern(int *p, int v) { p[blockIdx.x * blockDim.x + threadIdx.x] = v; }
namespace inner {
template <int K>
__global__ void tk(int *p) { p[threadIdx.x] = K; }
}  // namespace inner
}  // namespace ns

static void expect_all(const int *d, size_t n, int v, const char *what)
{
    std::vector<int> h = to_host(d, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(h[i] == v, "%s: element %zu is %d, want %d", what, i, h[i], v);
}

START_TEST(template_and_namespaced_kernels)
{
    int *p = dev_alloc<int>(32);
    fill<3><<<1, 32>>>(p);
    CUDA_OK(cudaGetLastError());
    std::vector<int> h = to_host(p, 32);
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(h[i], 3 * i);
    float *f = dev_alloc<float>(32);
    scale_by<float, 2><<<dim3(1), dim3(32)>>>(f, 0.5f);
    CUDA_OK(cudaGetLastError());
    std::vector<float> hf = to_host(f, 32);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(hf[i], (float)i);
    ns::kern<<<2, 16>>>(p, 7);
    CUDA_OK(cudaGetLastError());
    expect_all(p, 32, 7, "ns::kern");
    ns::inner::tk<11><<<1, 32>>>(p);
    CUDA_OK(cudaGetLastError());
    expect_all(p, 32, 11, "ns::inner::tk<11>");
}
END_TEST

START_TEST(versions_flags_special_streams_and_host_memory)
{
    int version = 0;
    CUDA_OK(cudaRuntimeGetVersion(&version));
    ck_assert_int_eq(version, CUDART_VERSION);
    ck_assert_int_eq(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10, CUDART_VERSION);
    CUDA_OK(cudaDriverGetVersion(&version));
    ck_assert_int_ge(version, CUDART_VERSION);

    unsigned flags = 0;
    CUDA_OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    CUDA_OK(cudaGetDeviceFlags(&flags));
    ck_assert_uint_eq(flags & cudaDeviceScheduleMask, cudaDeviceScheduleBlockingSync);
    CUDA_IS(cudaErrorInvalidValue, cudaSetDeviceFlags(0x3));
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());
    CUDA_OK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    cudaFuncCache cache = cudaFuncCachePreferNone;
    CUDA_OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CUDA_OK(cudaDeviceGetCacheConfig(&cache));
    ck_assert_int_eq(cache, cudaFuncCachePreferShared);
    CUDA_OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));

    int *d = dev_alloc<int>(32);
    fill<5><<<1, 32, 0, cudaStreamPerThread>>>(d);
    CUDA_OK(cudaStreamSynchronize(cudaStreamPerThread));
    fill<6><<<1, 32, 0, cudaStreamLegacy>>>(d);
    CUDA_OK(cudaStreamQuery(cudaStreamLegacy));
    ck_assert_int_eq(to_host(d, 32)[31], 6 * 31);
    CUDA_IS(cudaErrorInvalidResourceHandle, cudaStreamDestroy(cudaStreamPerThread));
    CUDA_IS(cudaErrorInvalidResourceHandle, cudaGetLastError());
    int least = -1, greatest = -1, priority = -1;
    CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    ck_assert(least == 0 && greatest == 0);
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
    CUDA_OK(cudaStreamGetFlags(stream, &flags));
    ck_assert_uint_eq(flags, cudaStreamNonBlocking);
    CUDA_OK(cudaStreamGetPriority(stream, &priority));
    ck_assert_int_eq(priority, 0);
    CUDA_OK(cudaStreamDestroy(stream));

    float *pinned = nullptr, *mapped = nullptr;
    CUDA_OK(cudaHostAlloc(&pinned, 64 * sizeof(float), cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer(&mapped, pinned, 0));
    ck_assert_ptr_eq(mapped, pinned);
    CUDA_OK(cudaHostRegister(pinned, 64 * sizeof(float), cudaHostRegisterDefault));
    CUDA_OK(cudaHostUnregister(pinned));
    CUDA_OK(cudaFreeHost(pinned));

    cudaDeviceProp p;
    int v = -1, device = -1;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    CUDA_OK(cudaChooseDevice(&device, &p));
    ck_assert_int_eq(device, 0);
    ck_assert_uint_eq(p.totalConstMem, 65536);
    ck_assert(p.unifiedAddressing && p.managedMemory && p.canMapHostMemory && !p.integrated && !p.cooperativeLaunch);
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrTotalConstantMemory, 0));
    ck_assert_int_eq(v, (int)p.totalConstMem);
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrUnifiedAddressing, 0));
    ck_assert_int_eq(v, p.unifiedAddressing);
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, 0));
    ck_assert_int_eq(v, p.cooperativeLaunch);

    // What a pointer points to; and the profiler's and NVTX's calls, which
    // no profiler watches here.
    cudaPointerAttributes a;
    float *managed = nullptr, host = 0;
    CUDA_OK(cudaPointerGetAttributes(&a, d));
    ck_assert(a.type == cudaMemoryTypeDevice && a.devicePointer == d && a.hostPointer == nullptr);
    CUDA_OK(cudaMallocManaged(&managed, 4 * sizeof(float)));
    CUDA_OK(cudaPointerGetAttributes(&a, managed));
    ck_assert(a.type == cudaMemoryTypeManaged && a.hostPointer == managed);
    CUDA_OK(cudaFree(managed));
    CUDA_OK(cudaPointerGetAttributes(&a, &host));
    ck_assert(a.type == cudaMemoryTypeUnregistered && a.devicePointer == nullptr && a.device == cudaInvalidDeviceId);
    CUDA_OK(cudaProfilerStart());
    ck_assert_int_eq(nvtxRangePushA("outer"), 0);
    ck_assert_int_eq(nvtxRangePush("inner"), 1);
    nvtxMark("here");
    ck_assert_int_eq(nvtxRangePop(), 1);
    ck_assert_int_eq(nvtxRangePop(), 0);
    ck_assert_int_eq(nvtxRangePop(), -1);
    nvtxRangeEnd(nvtxRangeStartA("span"));
    CUDA_OK(cudaProfilerStop());
}
END_TEST

// cudaDeviceGetAttribute gives cudaGetDeviceProperties' numbers; a stream
// of one's own runs its work at once, like the default stream; managed
// memory is host memory, and cudaFree gives it back.

START_TEST(attributes_streams_and_managed_memory)
{
    cudaDeviceProp p;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    int v = 0;
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    ck_assert_int_eq(v, p.multiProcessorCount);
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    ck_assert_int_eq(v, (int)p.sharedMemPerBlockOptin);
    CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    ck_assert_int_eq(v, p.major);
    CUDA_IS(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
    CUDA_IS(cudaErrorInvalidDevice, cudaGetLastError());

    // Eight-byte banks are asked for and not given: the banks stay four
    // bytes wide, as on every GPU since Maxwell.
    cudaSharedMemConfig banks = cudaSharedMemBankSizeDefault;
    CUDA_OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    CUDA_OK(cudaFuncSetSharedMemConfig(fill<4>, cudaSharedMemBankSizeEightByte));
    CUDA_OK(cudaDeviceGetSharedMemConfig(&banks));
    ck_assert_int_eq(banks, cudaSharedMemBankSizeFourByte);
    CUDA_IS(cudaErrorInvalidValue, cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)3));
    CUDA_IS(cudaErrorInvalidValue, cudaGetLastError());

    cudaStream_t stream;
    cudaEvent_t done;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_OK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    int *d = nullptr;
    CUDA_OK(cudaMallocAsync(&d, 32 * sizeof(int), stream));
    fill<4><<<1, 32, 0, stream>>>(d);
    CUDA_OK(cudaEventRecord(done, stream));
    CUDA_OK(cudaEventQuery(done));
    CUDA_OK(cudaStreamQuery(stream));
    CUDA_OK(cudaStreamWaitEvent(0, done));
    std::vector<int> h = to_host(d, 32);
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(h[i], 4 * i);
    CUDA_OK(cudaFreeAsync(d, stream));
    CUDA_OK(cudaEventDestroy(done));
    CUDA_OK(cudaStreamDestroy(stream));

    float *m = nullptr;
    CUDA_OK(cudaMallocManaged(&m, 16 * sizeof(float)));
    m[15] = 2.0f;  // the host reaches it directly
    ck_assert_float_eq(m[0], 0.0f);
    CUDA_OK(cudaFree(m));
}
END_TEST

START_TEST(launch_with_shared_bytes_and_stream)
{
    int *p = dev_alloc<int>(32);
    ns::kern<<<2, 16, 0>>>(p, 8);
    CUDA_OK(cudaGetLastError());
    expect_all(p, 32, 8, "<<<2, 16, 0>>>");
    ns::kern<<<2, 16, 0, 0>>>(p, 9);
    CUDA_OK(cudaGetLastError());
    expect_all(p, 32, 9, "<<<2, 16, 0, 0>>>");
    cudaStream_t stream = 0;
    fill<5><<<dim3(1), dim3(32), 0, stream>>>(p);
    CUDA_OK(cudaGetLastError());
    std::vector<int> h = to_host(p, 32);
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(h[i], 5 * i);
}
END_TEST

void add_launch_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "launch_configuration", 10);
    tcase_add_test(tc, bad_configurations_are_refused);
    tcase_add_test(tc, last_error_is_cleared_by_get_not_peek);
    tcase_add_test(tc, cuda_launch_kernel_reads_arguments_by_the_kernels_types);
    tcase_add_test(tc, dynamic_shared_memory_is_per_block);
    tcase_add_test(tc, dynamic_shared_memory_over_48k_is_refused);
    tcase_add_test(tc, static_and_dynamic_shared_memory_share_one_limit);
#ifdef SIM_OCCUPANCY_API
    tcase_add_test(tc, occupancy_api_answers_from_nvccs_numbers);
    tcase_add_test(tc, launch_refusal_agrees_with_the_occupancy_calculator);
#endif
    tcase_add_test(tc, shared_memory_opt_in_is_per_kernel);
    tcase_add_test(tc, blocks_over_their_kernels_resources_are_refused);

    tc = tcase(s, "thread_indexing", 10);
    tcase_add_test(tc, indexing_1d);
    tcase_add_test(tc, indexing_2d);
    tcase_add_test(tc, indexing_3d);
    tcase_add_test(tc, indexing_same_size_other_shape);

    tc = tcase(s, "kernel_arguments", 10);
    tcase_add_test(tc, arguments_are_per_thread_copies);

    tc = tcase(s, "events", 10);
    tcase_add_test(tc, event_elapsed_time);

    tc = tcase(s, "launch_forms", 10);
    tcase_add_test(tc, template_and_namespaced_kernels);
    tcase_add_test(tc, launch_with_shared_bytes_and_stream);
    tcase_add_test(tc, attributes_streams_and_managed_memory);
    tcase_add_test(tc, versions_flags_special_streams_and_host_memory);
}
