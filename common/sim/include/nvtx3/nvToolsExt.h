/* Simulator build: stands in for the CUDA toolkit's header of this name
 * (NVTX, the annotations a profiler's timeline shows: named ranges and
 * marks).  No profiler watches the simulator, so each call does nothing;
 * ranges still nest and count as NVTX's do, so a program that reads the
 * depth nvtxRangePush returns sees the same numbers.  The other headers
 * under nvtx3/ (domains, the C++ API) are not stood in for: a file that
 * includes one is a limit of the kit. */
#ifndef SIM_NVTX3_NVTOOLSEXT_H
#define SIM_NVTX3_NVTOOLSEXT_H

#include <stdint.h>
#include <wchar.h>

typedef uint64_t nvtxRangeId_t;

/* Depth of the pushed ranges: what Push returns (the level the new range
 * is at) and Pop returns (the level it ended), -1 for a Pop with none
 * open, as NVTX documents.  NVTX counts each thread's ranges; a lab's host
 * code is one thread, and a thread_local here would share the block of
 * storage the simulator gives each block's __shared__ arrays. */
static inline int *sim_nvtx_depth(void)
{
    static int depth;
    return &depth;
}
static inline int nvtxRangePushA(const char *message)
{
    (void)message;
    return (*sim_nvtx_depth())++;
}
static inline int nvtxRangePushW(const wchar_t *message)
{
    (void)message;
    return (*sim_nvtx_depth())++;
}
static inline int nvtxRangePop(void) { return *sim_nvtx_depth() > 0 ? --(*sim_nvtx_depth()) : -1; }
static inline void nvtxMarkA(const char *message) { (void)message; }
static inline void nvtxMarkW(const wchar_t *message) { (void)message; }
static inline nvtxRangeId_t nvtxRangeStartA(const char *message)
{
    static nvtxRangeId_t next;
    (void)message;
    return ++next;
}
static inline nvtxRangeId_t nvtxRangeStartW(const wchar_t *message)
{
    (void)message;
    return nvtxRangeStartA(0);
}
static inline void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }

#ifdef UNICODE
#define nvtxRangePush nvtxRangePushW
#define nvtxMark nvtxMarkW
#define nvtxRangeStart nvtxRangeStartW
#else
#define nvtxRangePush nvtxRangePushA
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#endif

#endif
