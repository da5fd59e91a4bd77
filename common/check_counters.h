/* The counters the simulator's check mode reports for every kernel launch,
 * declared once.  The simulator writes them (common/sim/check_mode.cpp, one
 * "launch=..." line per launch, "name=value" each, to SIM_CHECK_OUT), the
 * grader reads them (grader/grading.c, into check_counts), and the reports
 * keep the lines as they are (counters.tsv), so the report, the slides and
 * the lessons look them up by these names; `make test-report` fails when
 * one of those names a counter not declared here.
 *
 * X(name, merge, meaning):
 *   merge  SUM: a run's value is the sum over its launches;
 *          MAX: the largest launch's (per-thread maxima, one block's footprint)
 * The order is the order of the launch line.
 *
 * Plain C, no system headers: the simulator (C++) and the grader (C) both
 * include it. */
#ifndef CHECK_COUNTERS_H
#define CHECK_COUNTERS_H

#define CHECK_COUNTERS(X)                                                                                      \
    X(threads, SUM, "threads launched")                                                                     \
    X(blocks, SUM, "blocks launched")                                                                       \
    X(global_loads, SUM, "loads from global memory, one per thread per load instruction")                 \
    X(global_stores, SUM, "stores to global memory, one per thread per store or atomic instruction")     \
    X(max_loads_per_thread, MAX, "the most global loads one thread made")                                  \
    X(max_stores_per_thread, MAX, "the most global stores one thread made")                                \
    X(load_requests, SUM, "warp-wide global load requests")                                                \
    X(load_sectors, SUM, "32-byte sectors those load requests touched")                                    \
    X(load_sectors_fewest, SUM, "the fewest sectors those requests' bytes could fill (16-byte loads: 16)")  \
    X(store_requests, SUM, "warp-wide global store requests")                                              \
    X(store_sectors, SUM, "32-byte sectors those store requests touched")                                  \
    X(shared_loads, SUM, "loads from shared memory, one per thread per load instruction")                 \
    X(shared_stores, SUM, "stores to shared memory, one per thread per store or atomic instruction")     \
    X(bank_conflicts_ld, SUM, "shared-memory load wavefronts beyond the fewest the addresses allow")       \
    X(bank_conflicts_st, SUM, "shared-memory store wavefronts beyond the fewest the addresses allow")      \
    X(shared_column_stores, SUM, "shared store requests whose lanes mostly write 8 or more words apart (down a column)") \
    X(hazards, SUM, "shared-memory races: two threads, one slot, no barrier between, one a store")         \
    X(uninitialised_shared_reads, SUM, "shared-memory reads of slots no thread of the block had written") \
    X(out_of_bounds, SUM, "accesses outside every device allocation")                                     \
    X(host_accesses, SUM, "device code touching host memory")                                             \
    X(divergent_barriers, SUM, "barriers some threads of a block reached and others did not")             \
    X(block_races, SUM, "global reads or atomics on a word another block of the launch stored, unordered") \
    X(shared_words, MAX, "shared-memory words one block touched")                                         \
    X(shared_span_words, MAX, "words from the lowest to the highest shared address one block touched")    \
    X(shared_gaps, MAX, "runs of untouched words inside that span (a padded tile: one per row)")          \
    X(global_load_bytes, SUM, "bytes loaded from global memory")                                          \
    X(global_store_bytes, SUM, "bytes stored to global memory (a float4 store: 16)")                      \
    X(shared_load_bytes, SUM, "bytes loaded from shared memory")                                          \
    X(shared_store_bytes, SUM, "bytes stored to shared memory")                                           \
    X(shared_phases, SUM, "stretches between barriers that touched shared memory")                        \
    X(overlapped_phases, SUM, "of those, stretches that read what an earlier one stored and stored what a later one reads") \
    X(tensor_core_macs, SUM, "multiply-adds done by tensor cores (a warp's wmma::mma_sync at m16n16k8: 2048; its mma_m16n8k8_tf32: 1024)")

#endif
