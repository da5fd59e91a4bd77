// A picture of one shared-memory hazard for check mode: the two threads,
// their two accesses to one shared word in program order with the source
// lines they come from, and where the missing __syncthreads() belongs, as
// SVG.  `make check` writes one for the first hazard of a run.
#pragma once

#include <string>

namespace sim {

struct hazard_step {
    std::string thread;  // "thread (1,0,0)"
    bool store = false;
    std::string where;   // "matmul.cu:49"
    std::string source;  // that line of the source, trimmed; "" when unreadable
};

struct hazard_sample {
    std::string kind;           // "read-after-write", "write-after-read" or "write-after-write"
    std::string block;          // "block (0,0,0)"
    std::string slot;           // "As[0][1]"; "" when the debug information does not say
    hazard_step first, second;  // in program order: second must wait for first
    std::string missing_after;  // "matmul.cu:49": where the barrier belongs; "" for write-after-write
    // The barrier that is missing, named on the red line: within one warp,
    // "__syncwarp() (or __syncthreads())".
    std::string barrier = "__syncthreads()";
    unsigned long long count = 1;  // how many times the run met this pair of lines
};

// Writes the picture of `h` to `path`.  Returns false when the file cannot
// be written.
bool write_hazard_picture(const char *path, const hazard_sample &h);

}  // namespace sim
