// A picture of one warp-wide shared-memory access for check mode: the 32
// lanes, the banks their words fall in, and the conflict degree, as SVG.
// `make check` writes one for the worst shared access site of a run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct access_sample {
    std::vector<uint32_t> lane_bytes;  // each lane's first byte, relative to the shared block
    uint32_t size = 0;                 // bytes per lane: 4, 8 or 16
    bool store = false;
    unsigned degree = 0;               // the request's conflict degree
};

// Writes the picture of `sample`, made at source line `where`, to `path`.
// Returns false when the file cannot be written.
bool write_access_picture(const char *path, const access_sample &sample, const std::string &where);

}  // namespace sim
