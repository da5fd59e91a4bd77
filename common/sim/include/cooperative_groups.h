/* Simulator build: stands in for the CUDA toolkit's header of this name.
 *
 * The groups a matmul kernel has use for: the thread block, and tiles of
 * it of up to a warp (tiled_partition), with their barriers, ranks,
 * shuffles and votes.  Each is the simulator's own barrier or warp-level
 * call underneath (cuda_sim.h), so a tile's shuffle obeys, and is checked
 * by, the same rules as __shfl_sync's.  A group knows its place from the
 * running thread's indices alone: it holds no data, so check mode sees no
 * loads or stores of its own.
 *
 * What is not here is refused when a program uses it, as a limit of the
 * kit, not a mistake in the student's code: the grid (its sync needs a
 * cooperative launch), coalesced_threads (which lanes run together is a
 * GPU's moment, as for __activemask), tiles larger than a warp, and the
 * tiles' match_any and match_all. */
#ifndef SIM_COOPERATIVE_GROUPS_H
#define SIM_COOPERATIVE_GROUPS_H

#include <cstdlib>

#include "../cuda_sim.h"

namespace cooperative_groups {

namespace sim_detail {

// The running thread's rank in its block, x fastest, as a GPU numbers
// threads into warps.
inline unsigned block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

// The first lane of the running thread's tile of `size` threads (a power
// of two up to 32: a tile never straddles two warps), and the tile's lanes.
inline unsigned tile_first_lane(unsigned size) { return block_rank() % sim::warp_lanes / size * size; }
inline unsigned tile_mask(unsigned size)
{
    unsigned lanes = size == sim::warp_lanes ? 0xffffffffu : (1u << size) - 1u;
    return lanes << tile_first_lane(size);
}

constexpr bool is_tile_size(unsigned size) { return size >= 1 && size <= sim::warp_lanes && (size & (size - 1)) == 0; }

}  // namespace sim_detail

// Any group: the block (tile_size 0) or a tile of it.  Plain data, so a
// group passes by value or reference as CUDA's does.
class thread_group {
public:
    void sync() const
    {
        if (tile_size_ == 0)
            sim_syncthreads();
        else
            sim_warp_syncwarp(sim_detail::tile_mask(tile_size_));
    }
    unsigned long long thread_rank() const
    {
        return tile_size_ == 0 ? sim_detail::block_rank() : sim_detail::block_rank() % tile_size_;
    }
    unsigned long long num_threads() const
    {
        return tile_size_ == 0 ? sim_detail::block_threads() : tile_size_;
    }
    unsigned long long size() const { return num_threads(); }

protected:
    explicit thread_group(unsigned tile_size) : tile_size_(tile_size) {}
    unsigned tile_size_;  // 0: the whole block

    template <class G>
    friend thread_group tiled_partition(const G &parent, unsigned tile_size);
};

class thread_block : public thread_group {
public:
    thread_block() : thread_group(0) {}
    static void sync() { sim_syncthreads(); }
    static unsigned thread_rank() { return sim_detail::block_rank(); }
    static unsigned num_threads() { return sim_detail::block_threads(); }
    static unsigned size() { return num_threads(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

// A tile of Size threads of the block, numbered by their rank in it.
// thread_block_tile<Size, Parent> (what tiled_partition returns) converts
// to thread_block_tile<Size>, the spelling kernels usually declare.
template <unsigned Size, class Parent = void>
class thread_block_tile;

template <unsigned Size>
class thread_block_tile<Size, void> : public thread_group {
    static_assert(Size > sim::warp_lanes || sim_detail::is_tile_size(Size),
                  "thread_block_tile: a tile's size is a power of two");
    static_assert(Size <= sim::warp_lanes,
                  "cooperative_groups::thread_block_tile of more than 32 threads is not simulated: the "
                  "simulator's tiles are a warp or less, a limit of the kit, not a "
                  "mistake in your code; run and grade it on a GPU (BACKEND=gpu)");

public:
    thread_block_tile() : thread_group(Size) {}
    static unsigned mask() { return sim_detail::tile_mask(Size); }
    static void sync() { sim_warp_syncwarp(mask()); }
    static unsigned thread_rank() { return sim_detail::block_rank() % Size; }
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    static unsigned meta_group_rank() { return sim_detail::block_rank() / Size; }
    static unsigned meta_group_size() { return (sim_detail::block_threads() + Size - 1) / Size; }

    // A tile's shuffles carry a value of any trivially copyable type, as
    // CUDA's do: one of more than 8 bytes (a float4, say) goes as 8-byte
    // pieces, each a shuffle of its own.
    template <class T>
    static T shfl(T var, int src_rank) { return shuffle(sim::warp_op::shfl, var, src_rank); }
    template <class T>
    static T shfl_up(T var, unsigned delta) { return shuffle(sim::warp_op::shfl_up, var, (int)delta); }
    template <class T>
    static T shfl_down(T var, unsigned delta) { return shuffle(sim::warp_op::shfl_down, var, (int)delta); }
    template <class T>
    static T shfl_xor(T var, unsigned lane_mask) { return shuffle(sim::warp_op::shfl_xor, var, (int)lane_mask); }
    static int any(int predicate) { return sim_warp_any_sync(mask(), predicate); }
    static int all(int predicate) { return sim_warp_all_sync(mask(), predicate); }
    // The tile's own lanes' votes, bit 0 for its rank 0, as CUDA numbers them.
    static unsigned ballot(int predicate)
    {
        return sim_warp_ballot_sync(mask(), predicate) >> sim_detail::tile_first_lane(Size);
    }

private:
    template <class T>
    static T shuffle(sim::warp_op op, T var, int arg)
    {
        static_assert(std::is_trivially_copyable<T>::value, "a tile's shuffle carries a trivially copyable value");
        if constexpr (sizeof(T) <= 8) {
            return sim::warp_shuffle(op, mask(), var, arg, (int)Size);
        } else {
            uint64_t pieces[(sizeof(T) + 7) / 8] = {};
            __builtin_memcpy(pieces, &var, sizeof var);
            for (uint64_t &piece : pieces)
                piece = sim::warp_shuffle(op, mask(), piece, arg, (int)Size);
            T out;
            __builtin_memcpy(&out, pieces, sizeof out);
            return out;
        }
    }

public:
    template <class T>
    static unsigned match_any(T)
    {
        static_assert(sim::not_simulated<T>,
                      "cooperative_groups::thread_block_tile::match_any is not simulated: it groups lanes by "
                      "value, which the CPU simulator does not do, a limit of the kit, not a mistake in your "
                      "code; run and grade it on a GPU (BACKEND=gpu)");
        return 0;
    }
    template <class T>
    static unsigned match_all(T, int &)
    {
        static_assert(sim::not_simulated<T>,
                      "cooperative_groups::thread_block_tile::match_all is not simulated: it groups lanes by "
                      "value, which the CPU simulator does not do, a limit of the kit, not a mistake in your "
                      "code; run and grade it on a GPU (BACKEND=gpu)");
        return 0;
    }
};

template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent &)
{
    return thread_block_tile<Size, Parent>();
}

// The run-time form: tiled_partition(block, 16), a thread_group.
template <class G>
thread_group tiled_partition(const G &, unsigned tile_size)
{
    if (!sim_detail::is_tile_size(tile_size)) {
        fprintf(stderr, "tiled_partition(group, %u): the CPU simulator has tiles of 1, 2, 4, 8, 16 or 32 "
                        "threads, a limit of the kit, not a mistake in your code\n", tile_size);
        abort();
    }
    return thread_group(tile_size);
}

template <class G>
void sync(const G &group) { group.sync(); }
template <class G>
auto thread_rank(const G &group) -> decltype(group.thread_rank()) { return group.thread_rank(); }
template <class G>
auto group_size(const G &group) -> decltype(group.num_threads()) { return group.num_threads(); }

// The rest of CUDA's groups, refused with why when a program uses them.
#define SIM_CG_NOT_SIMULATED(name, why)                                                                     \
    template <class... A>                                                                                   \
    inline void name(A...)                                                                                  \
    {                                                                                                       \
        static_assert(sim::not_simulated<A...>, "cooperative_groups::" #name " is not simulated: " why \
                      ", a limit of the kit, not a mistake in your code; run and grade it on a GPU (BACKEND=gpu)"); \
    }
SIM_CG_NOT_SIMULATED(this_grid, "the grid's barrier needs a cooperative launch, which the CPU simulator does not have")
SIM_CG_NOT_SIMULATED(this_multi_grid, "the CPU simulator has one device and no cooperative launch")
SIM_CG_NOT_SIMULATED(this_cluster, "the CPU simulator has no thread block clusters")
SIM_CG_NOT_SIMULATED(coalesced_threads,
                     "it names the lanes a GPU runs together at that moment, which the CPU simulator (lanes one "
                     "after another) does not have")
SIM_CG_NOT_SIMULATED(binary_partition, "it partitions the lanes that run together, which the CPU simulator does not have")
SIM_CG_NOT_SIMULATED(labeled_partition, "it partitions the lanes that run together, which the CPU simulator does not have")
SIM_CG_NOT_SIMULATED(invoke_one, "it picks one of the lanes that run together, which the CPU simulator does not have")
#undef SIM_CG_NOT_SIMULATED

}  // namespace cooperative_groups

#endif
