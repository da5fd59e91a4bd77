/* test_check_mode, part: races between blocks: plain and atomic accesses of
 * one word by several blocks, with and without a fence.
 */
#include "check_mode_tests.h"

// The name the checker gives this file's lines (check_mode_tests.h).
static const char *this_file_path() { return __FILE__; }

// ------------------------------------------------------- races between blocks

// Blocks of one launch hand words to each other: what check mode calls a
// race between blocks, and what it does not.
enum block_handover {
    plain_add, atomic_add, same_value_stores, zeroed_then_atomic, fenced_last_block, unfenced_last_block,
    block_scoped_add, system_scoped_add, block_scoped_own_word, atomic_then_plain_read
};

__global__ void hand_over(float *sums, float *partials, unsigned *tickets, int how)
{
    int b = blockIdx.x;
    if (how == block_scoped_own_word) {  // a block's threads add into its own word: atomic enough
        atomicAdd_block(&partials[b], 1.0f);
        return;
    }
    if (threadIdx.x != 0)
        return;
    switch (how) {
    case plain_add:  // split-k's lost update: every block reads what another stored
        sums[0] += 1.0f;
        break;
    case atomic_add:
        atomicAdd(&sums[0], 1.0f);
        break;
    case block_scoped_add:  // atomic within a block, not between blocks
        atomicAdd_block(&sums[0], 1.0f);
        break;
    case system_scoped_add:
        atomicAdd_system(&sums[0], 1.0f);
        break;
    case same_value_stores:  // overlapping tiles written twice with one value: stores only
        sums[0] = 7.0f;
        break;
    case atomic_then_plain_read:  // each block adds, then reads the sum as it stands: what others added, or not
        atomicAdd(&sums[0], 1.0f);
        partials[b] = sums[0];
        break;
    case zeroed_then_atomic:  // block 0 zeroes the sum in the same launch the others add to it
        if (b == 0)
            sums[0] = 0.0f;
        atomicAdd(&sums[0], 1.0f);
        break;
    case fenced_last_block:
    case unfenced_last_block: {  // each block stores its part; the last to finish adds them up
        partials[b] = (float)b;
        if (how == fenced_last_block)
            __threadfence();
        if (atomicInc(&tickets[0], gridDim.x) == gridDim.x - 1) {
            float total = 0.0f;
            for (unsigned k = 0; k < gridDim.x; k++)
                total += partials[k];
            sums[1] = total;
        }
        break;
    }
    }
}

static check_report run_hand_over(int how, std::vector<float> *sums_host, std::vector<float> *partials_host = nullptr)
{
    const int blocks = 64;
    float *sums = dev_floats(2), *partials = dev_floats(blocks);
    unsigned *tickets = nullptr;
    CUDA_OK(cudaMalloc(&tickets, sizeof(unsigned)));
    CUDA_OK(cudaMemset(tickets, 0, sizeof(unsigned)));
    CUDA_OK(cudaMemset(sums, 0, 2 * sizeof(float)));
    checked_run run;
    hand_over<<<blocks, 32>>>(sums, partials, tickets, how);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    check_report r = run.finish();
    *sums_host = to_host(sums, 2);
    if (partials_host)
        *partials_host = to_host(partials, blocks);
    return r;
}

START_TEST(plain_adds_of_blocks_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(plain_add, &sums);
    ck_assert_msg(r.value("block_races") > 0, "no race between blocks found:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", " read byte 0 of a 8-byte device allocation at " }).empty(),
                  "the finding does not say which word was read:\n%s", r.raw.c_str());
}
END_TEST

// Each test one launch: check_report wants launch=1.
START_TEST(atomic_after_another_blocks_store_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(zeroed_then_atomic, &sums);
    ck_assert_msg(r.value("block_races") > 0, "an atomic after another block's store is no race:\n%s", r.raw.c_str());
    // Found whichever ran first: block 0's store, or another block's atomic.
    ck_assert_msg(!r.matching({"race between blocks", "atomically updated"}).empty() ||
                      !r.matching({"race between blocks", "stored", "had updated atomically"}).empty(),
                  "%s", r.raw.c_str());
}
END_TEST

// A plain read of a word other blocks update atomically: found whichever
// block runs first, since every block after the first reads after another's
// update.
START_TEST(plain_read_after_another_blocks_atomic_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(atomic_then_plain_read, &sums);
    ck_assert_msg(r.value("block_races") > 0, "a read after another block's atomic is no race:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", " read ", "had updated atomically"}).empty(), "%s",
                  r.raw.c_str());
}
END_TEST

START_TEST(unfenced_last_block_races)
{
    std::vector<float> sums;
    check_report r = run_hand_over(unfenced_last_block, &sums);
    ck_assert_msg(r.value("block_races") > 0, "the unfenced last block's reads are no race:\n%s", r.raw.c_str());
}
END_TEST

START_TEST(atomics_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(atomic_add, &sums);
    ck_assert_float_eq(sums[0], 64.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

// Atomics of block scope are atomic among one block's threads: between
// blocks they race like a plain update; of system scope, like atomicAdd.
START_TEST(block_scoped_atomics_of_blocks_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(block_scoped_add, &sums);
    ck_assert_msg(r.value("block_races") > 0, "atomicAdd_block from every block is no race:\n%s", r.raw.c_str());
    ck_assert_msg(!r.matching({"race between blocks", "with an atomic of block scope", "atomicAdd, not atomicAdd_block"})
                       .empty(),
                  "%s", r.raw.c_str());
}
END_TEST

START_TEST(system_scoped_atomics_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(system_scoped_add, &sums);
    ck_assert_float_eq(sums[0], 64.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(block_scoped_atomics_within_a_block_do_not_race)
{
    std::vector<float> sums, partials;
    check_report r = run_hand_over(block_scoped_own_word, &sums, &partials);
    for (size_t b = 0; b < partials.size(); b++)  // dev_floats began them at 1 + b
        ck_assert_float_eq(partials[b], 1.0f + (float)b + 32.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(stores_alone_do_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(same_value_stores, &sums);
    EXPECT(r, "block_races", 0);
}
END_TEST

START_TEST(fenced_last_block_does_not_race)
{
    std::vector<float> sums;
    check_report r = run_hand_over(fenced_last_block, &sums);
    ck_assert_float_eq(sums[1], 63.0f * 64.0f / 2.0f);
    EXPECT(r, "block_races", 0);
}
END_TEST

void add_block_race_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "block_races", 20);
    tcase_add_test(tc, plain_adds_of_blocks_race);
    tcase_add_test(tc, atomic_after_another_blocks_store_races);
    tcase_add_test(tc, plain_read_after_another_blocks_atomic_races);
    tcase_add_test(tc, unfenced_last_block_races);
    tcase_add_test(tc, atomics_do_not_race);
    tcase_add_test(tc, block_scoped_atomics_of_blocks_race);
    tcase_add_test(tc, system_scoped_atomics_do_not_race);
    tcase_add_test(tc, block_scoped_atomics_within_a_block_do_not_race);
    tcase_add_test(tc, stores_alone_do_not_race);
    tcase_add_test(tc, fenced_last_block_does_not_race);
}
