// A phase's records, warp by warp, grouped as a GPU issues them: the i-th
// access at one source line by the lanes of a warp is one request.  Shared
// requests give bank conflicts (wavefronts), global ones 32-byte sectors.
#include "check_state.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace sim::checking {

// ---------------------------------------------------------------- one warp-wide request

static void shared_request(site_stats &s, const access *const *lanes, unsigned count, uint64_t block)
{
    // 4-byte accesses: one pass over the 32 banks.  Wider ones are served a
    // group of lanes at a time (8 lanes of 16 bytes fill the 128 bytes a
    // pass moves), so each group is its own wavefront.
    uint32_t size = lanes[0]->size;
    unsigned per_pass = size > 4 ? std::max(1u, 128u / size) : warp_size;
    unsigned wavefronts = 0, ideal = 0, worst = 1;
    for (unsigned g = 0; g < count; g += per_pass) {
        uintptr_t words[warp_size * 4];
        unsigned nw = 0;
        for (unsigned l = g; l < std::min(count, g + per_pass); l++)
            for (uint32_t b = 0; b < std::max<uint32_t>(size, 4); b += 4)
                words[nw++] = (lanes[l]->addr + b) / 4;
        std::sort(words, words + nw);
        nw = (unsigned)(std::unique(words, words + nw) - words);
        unsigned per_bank[banks] = {0}, degree = 1;
        for (unsigned i = 0; i < nw; i++)
            degree = std::max(degree, ++per_bank[words[i] % banks]);
        wavefronts += degree;
        ideal += 1;
        worst = std::max(worst, degree);
        if (degree > s.worst.degree || (degree == s.worst.degree && block < s.worst_block)) {
            s.worst_block = block;
            s.worst.degree = degree;
            s.worst.size = size;
            s.worst.store = (lanes[0]->flags & is_store) != 0;
            s.worst.lane_bytes.clear();
            for (unsigned l = g; l < std::min(count, g + per_pass); l++)
                s.worst.lane_bytes.push_back((uint32_t)lanes[l]->addr);
        }
    }
    s.requests++;
    s.wavefronts += wavefronts;
    s.ideal_wavefronts += ideal;
    s.max_degree = std::max(s.max_degree, worst);
    if ((lanes[0]->flags & is_store) && count > 1) {
        unsigned far = 0;
        for (unsigned l = 1; l < count; l++) {
            uintptr_t a = lanes[l]->addr / 4, b = lanes[l - 1]->addr / 4;
            far += (a > b ? a - b : b - a) >= 8;
        }
        s.column_requests += 2 * far > count - 1;
    }
}

static void global_request(site_stats &s, const access *const *lanes, unsigned count)
{
    uintptr_t sectors[warp_size * 2];
    unsigned ns = 0;
    for (unsigned l = 0; l < count; l++) {
        sectors[ns++] = lanes[l]->addr / sector_bytes;
        uintptr_t end = (lanes[l]->addr + lanes[l]->size - 1) / sector_bytes;
        if (end != sectors[ns - 1])
            sectors[ns++] = end;
    }
    std::sort(sectors, sectors + ns);
    s.requests++;
    s.ideal_sectors += (count * lanes[0]->size + sector_bytes - 1) / sector_bytes;
    s.sectors += (unsigned long long)(std::unique(sectors, sectors + ns) - sectors);
}

static void request(worker_check *w, const access *const *lanes, unsigned count)
{
    const access &a = *lanes[0];
    auto key = std::make_pair(a.pc, (a.flags & is_store) != 0);
    if (a.flags & is_shared)
        shared_request(w->totals.shared_sites[key], lanes, count, block_linear(w));
    else
        global_request(w->totals.global_sites[key], lanes, count);
}

// Groups one warp's accesses of this phase into requests: the k-th access
// each lane made at a given source line.  When every lane made the same
// sequence (no divergence), the k-th records line up and no map is needed.
void analyse_warp(worker_check *w, unsigned first, unsigned last)
{
    const std::vector<access> &lead = w->records[first];
    bool aligned = true;
    for (unsigned t = first + 1; t < last && aligned; t++) {
        const std::vector<access> &r = w->records[t];
        if (r.size() != lead.size())
            aligned = false;
        for (size_t i = 0; aligned && i < r.size(); i += std::max<size_t>(1, r.size() / 8))
            aligned = r[i].pc == lead[i].pc && r[i].flags == lead[i].flags;
    }
    const access *lanes[warp_size];
    if (aligned) {
        for (size_t i = 0; i < lead.size(); i++) {
            unsigned n = 0;
            for (unsigned t = first; t < last; t++)
                if (w->records[t][i].pc == lead[i].pc && w->records[t][i].flags == lead[i].flags)
                    lanes[n++] = &w->records[t][i];
            request(w, lanes, n);
        }
        return;
    }
    // Keyed by kind too: a cp.async copy records a load and a store at one
    // line, and a zero-filled one only the store, so counting them together
    // would pair one lane's store with another's load.
    std::map<std::tuple<uintptr_t, uint8_t, size_t>, std::vector<const access *>> groups;
    for (unsigned t = first; t < last; t++) {
        std::map<std::pair<uintptr_t, uint8_t>, size_t> seen;
        for (const access &a : w->records[t])
            groups[{a.pc, a.flags, seen[{a.pc, a.flags}]++}].push_back(&a);
    }
    for (auto &g : groups)
        request(w, g.second.data(), (unsigned)g.second.size());
}

}  // namespace sim::checking
