// A GPU's checks of a launch against its kernel's resources (launch_limits.h),
// and cudaFuncSetAttribute, which moves one of those limits.
#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "engine.h"
#include "kernel_resources.h"
#include "launch_limits.h"
#include "runtime_state.h"

// A build nvcc did not check has no table (kernel_resources.h).
extern "C" __attribute__((weak)) const sim::kernel_resources sim_kernel_resources[] = {
    {nullptr, 0, nullptr, nullptr, 0, 0, 0}};

namespace sim {
namespace {

// A block's static and dynamic shared memory together may be 48 KiB; more
// only for a kernel whose limit on dynamic shared memory
// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
// bytes) raised.  The limit is each kernel's own: raising one kernel's
// (one instance of a template, say) leaves every other kernel's at its
// default.
constexpr size_t default_block_shared = 48 * 1024;
// Each kernel's settings, as cudaFuncSetAttribute left them.
std::mutex settings_lock;
std::unordered_map<const void *, size_t> dynamic_shared_opt_in;
std::unordered_map<const void *, int> preferred_carveout;

// Bytes of __shared__ arrays a block of kernel declares (0 if unknown).
size_t static_shared_of(const kernel_resources *k) { return k ? (size_t)k->static_shared : 0; }

}  // namespace

size_t block_shared_optin()
{
    static const size_t offered = [] {
        const char *env = getenv("LAB_SHARED_PER_BLOCK_OPTIN");
        if (!env || !*env)
            return max_block_shared;
        unsigned long long bytes = strtoull(env, nullptr, 10);
        if (bytes == 0)  // not a number: the device as it is (as on a GPU)
            return max_block_shared;
        if (bytes < default_block_shared)
            return default_block_shared;
        return bytes < max_block_shared ? (size_t)bytes : max_block_shared;
    }();
    return offered;
}

const kernel_resources *resources_of(const void *kernel)
{
    for (const kernel_resources *k = sim_kernel_resources; k->name; k++)
        if (k->kernel && k->kernel == kernel)
            return k;
    return nullptr;
}

std::string readable_name(const kernel_resources &k)
{
    int status = 0;
    char *readable = abi::__cxa_demangle(k.name, nullptr, nullptr, &status);
    std::string name = status == 0 && readable ? readable : k.name;
    free(readable);
    return name;
}

size_t dynamic_shared_limit(const void *kernel, bool *opted_in)
{
    size_t static_shared = static_shared_of(resources_of(kernel));
    std::lock_guard<std::mutex> hold(settings_lock);
    auto set = dynamic_shared_opt_in.find(kernel);
    *opted_in = set != dynamic_shared_opt_in.end();
    if (*opted_in)
        return set->second;
    return static_shared < default_block_shared ? default_block_shared - static_shared : 0;
}

int shared_memory_carveout(const void *kernel)
{
    std::lock_guard<std::mutex> hold(settings_lock);
    auto set = preferred_carveout.find(kernel);
    return set == preferred_carveout.end() ? -1 : set->second;
}

// A block may have no more threads than the kernel's __launch_bounds__
// allow, and its registers must fit the 65536 a GPU gives one block
// (compute capability 5.0 on).  They are allotted a warp at a time, 256 at
// a time, and a block's warps are dealt to the SM's four register files of
// 16384 in turn, so a block takes them as if its warps were a multiple of
// four (as CUDA's occupancy calculator, cuda_occupancy.h, counts them):
// 25 warps of 80 registers need 28 x 2560 = 71680.
std::string refused_for_resources(const void *kernel, unsigned long threads)
{
    constexpr unsigned long registers_per_block = 65536, allocation_unit = 256, register_files = 4;
    const kernel_resources *k = resources_of(kernel);
    if (!k)
        return "";
    unsigned long per_warp = (k->registers * 32ul + allocation_unit - 1) / allocation_unit * allocation_unit;
    unsigned long warps = (threads + 31) / 32;
    unsigned long needed = (warps + register_files - 1) / register_files * register_files * per_warp;
    bool over_bound = k->max_threads > 0 && threads > (unsigned long)k->max_threads;
    if (!over_bound && needed <= registers_per_block)
        return "";
    std::string name = readable_name(*k);
    char why[768];
    if (over_bound)
        snprintf(why, sizeof why,
                 "a block of %lu threads of %s, whose __launch_bounds__ allow at most %d: a GPU launches no "
                 "block larger than the bound the kernel was compiled for (raise the bound, or launch smaller "
                 "blocks)",
                 threads, name.c_str(), k->max_threads);
    else
        snprintf(why, sizeof why,
                 "a block of %lu threads of %s needs %lu registers (nvcc gave it %d a thread for %s%s), more "
                 "than the %lu one block may have: fewer threads per block, or __launch_bounds__(%lu) on the "
                 "kernel so that nvcc makes it fit",
                 threads, name.c_str(), needed, k->registers, k->gpu,
                 warps % register_files ? "; its warps are dealt to an SM's four register files, so it takes "
                                          "them for a multiple of four warps"
                                        : "",
                 registers_per_block, threads);
    return why;
}

std::string refused_for_shared_memory(const void *kernel, size_t dynamic_shared)
{
    const kernel_resources *k = resources_of(kernel);
    size_t static_shared = static_shared_of(k);
    bool opted_in;
    size_t limit = dynamic_shared_limit(kernel, &opted_in);
    if (dynamic_shared <= limit)
        return "";
    char why[768];
    if (static_shared + dynamic_shared > block_shared_optin())
        snprintf(why, sizeof why,
                 "the launch asks for %zu bytes of dynamic shared memory%s, more than the %zu this device offers "
                 "a block at all (sharedMemPerBlockOptin): no cudaFuncSetAttribute can allow it, so a launcher "
                 "meant for smaller GPUs asks the device and takes a smaller shape",
                 dynamic_shared, static_shared ? " beside the kernel's __shared__ arrays" : "", block_shared_optin());
    else if (opted_in)
        snprintf(why, sizeof why,
                 "the launch asks for %zu bytes of dynamic shared memory, more than the %zu that "
                 "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) allowed "
                 "this kernel",
                 dynamic_shared, limit);
    else if (static_shared > 0)
        snprintf(why, sizeof why,
                 "the launch asks for %zu bytes of dynamic shared memory, and %s declares %zu bytes of "
                 "__shared__ arrays: %zu in all, more than the %zu a block may have unless "
                 "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, %zu) raises this "
                 "kernel's limit first (up to %zu bytes in all)",
                 dynamic_shared, readable_name(*k).c_str(), static_shared, static_shared + dynamic_shared,
                 default_block_shared, dynamic_shared, block_shared_optin());
    else
        snprintf(why, sizeof why,
                 "the launch asks for %zu bytes of dynamic shared memory, more than the %zu a block may have "
                 "unless cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, %zu) raises "
                 "this kernel's limit first (up to %zu bytes)",
                 dynamic_shared, default_block_shared, dynamic_shared, block_shared_optin());
    return why;
}

}  // namespace sim

cudaError_t sim_func_set_attribute(const void *kernel, cudaFuncAttribute attribute, int value)
{
    using namespace sim;
    if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100)
            return record_error(cudaErrorInvalidValue);
        std::lock_guard<std::mutex> hold(settings_lock);
        preferred_carveout[kernel] = value;
        return cudaSuccess;
    }
    const kernel_resources *k = resources_of(kernel);
    size_t static_shared = static_shared_of(k);
    size_t offered = block_shared_optin();
    if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0 ||
        (size_t)value + static_shared > offered) {
        if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize && value >= 0 && static_shared > 0)
            report("cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d): with the kernel's "
                   "%zu bytes of __shared__ arrays a block would have %zu, more than the %zu it may have",
                   readable_name(*k).c_str(), value, static_shared, static_shared + value, offered);
        else if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize && value >= 0)
            report("cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, %d): more than the "
                   "%zu bytes this device offers a block (sharedMemPerBlockOptin)",
                   value, offered);
        else
            report("cudaFuncSetAttribute: attribute %d with value %d: the simulator takes "
                   "cudaFuncAttributeMaxDynamicSharedMemorySize up to %zu bytes and the carveout (-1 to 100)",
                   (int)attribute, value, offered);
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(settings_lock);
    dynamic_shared_opt_in[kernel] = (size_t)value;
    return cudaSuccess;
}
