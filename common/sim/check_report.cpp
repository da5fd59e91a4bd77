// The report a check run prints (and writes, SIM_CHECK_OUT): each source
// line's requests and findings in words, with the line's text, found by
// addr2line on the program itself.
#include "check_state.h"
#include "check_counters.h"
#include "hazard_picture.h"
#include "program_file.h"
#include "runtime_state.h"
#include "shared_names.h"

#include <dlfcn.h>

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace sim::checking {

// The full path of each source file addr2line named, by its base name (the
// name messages show), so a picture can quote the line itself.
static std::map<std::string, std::string> source_paths;

// A line addr2line could not give: "file:?" or "file:0" (code the
// compiler merged from several lines, e.g. the two stores of an if/else
// made one), or "??".
static bool line_unknown(const std::string &where)
{
    return where.empty() || where.compare(0, 2, "??") == 0 ||
           (where.size() >= 2 && where.compare(where.size() - 2, 2, ":?") == 0) ||
           (where.size() >= 2 && where.compare(where.size() - 2, 2, ":0") == 0);
}

// Two names for a code address, each "file:line".  The call's is the
// outermost frame's line, the kernel's own: findings name it (a missing
// barrier goes after the call of a helper that stores, not inside it).
// The own line is the innermost frame in the outermost frame's file: a
// request's traffic names it, so a helper's access is called by its own
// line whether the compiler inlined the helper (at one call, or several)
// or not, and the kit's inline functions (__syncthreads() in cuda_sim.h,
// wmma's) by the line that calls them.  Kept as two maps, by address.
struct source_names {
    std::map<uintptr_t, std::string> call, own;
};

// Both names of each code address, by addr2line on this program.  The
// addresses are return addresses less one (check_mode.cpp's on_access):
// inside the hook's call instruction, whose line is the access's; the
// return address itself may belong to the next line, or to none.
static source_names addr2line_lines(const std::set<uintptr_t> &pcs)
{
    source_names lines;
    if (pcs.empty())
        return lines;
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(*pcs.begin()), &info) || !info.dli_fname)
        return lines;
    // -i lists the frames an address was inlined through, innermost
    // first; -a marks where each address's answer begins.
    std::string cmd = "addr2line -a -i -e " + program_file_for_shell();
    auto base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    char hex[32];
    for (uintptr_t pc : pcs) {
        snprintf(hex, sizeof hex, " 0x%" PRIxPTR, pc - base);
        cmd += hex;
    }
    FILE *p = popen((cmd + " 2>/dev/null").c_str(), "r");
    if (!p)
        return lines;
    char buf[4096];
    auto next = pcs.begin();
    // One address's frames, innermost first, each as (file's path, "file:line").
    std::vector<std::pair<std::string, std::string>> frames;
    auto name_address = [&]() {
        if (frames.empty())
            return;
        uintptr_t pc = *std::prev(next);
        lines.call[pc] = lines.own[pc] = frames.back().second;
        for (const auto &f : frames)
            if (f.first == frames.back().first && !line_unknown(f.second)) {
                lines.own[pc] = f.second;
                break;
            }
        frames.clear();
    };
    while (fgets(buf, sizeof buf, p)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (!strncmp(buf, "0x", 2)) {
            name_address();
            if (next == pcs.end())
                break;
            ++next;
            continue;
        }
        if (next == pcs.begin())
            continue;
        char *file = strrchr(buf, '/');
        std::string where = file ? file + 1 : buf;
        if (size_t paren = where.find(" ("); paren != std::string::npos)
            where.resize(paren);
        size_t colon = where.rfind(':');
        std::string path = file ? std::string(buf, (size_t)(file - buf) + 1) : "";
        path += where.substr(0, colon);
        if (file && colon != std::string::npos)
            source_paths.emplace(where.substr(0, colon), path);
        frames.emplace_back(path, where);
    }
    name_address();
    pclose(p);
    return lines;
}

// "matmul.cu:49" or "matmul.cu:49 (or near it)" as its file and line; a
// line 0 when it names none.
static std::pair<std::string, long> file_and_line(const std::string &where)
{
    size_t colon = where.find(':');
    if (colon == std::string::npos)
        return {where, 0};
    return {where.substr(0, colon), strtol(where.c_str() + colon + 1, nullptr, 10)};
}

// The same, to order sites as the source does; a line not known sorts last.
static std::pair<std::string, long> source_order(const std::string &where)
{
    auto at = file_and_line(where);
    if (line_unknown(where) || at.second <= 0)
        at.second = LONG_MAX;
    return at;
}

// How far back to look for the line of code the compiler merged: a few
// instructions.
static constexpr uintptr_t merged_code_reach = 64;

// Both names of each code address.  Every access gets a line: where the
// compiler left none, the nearest earlier instruction's names stand in,
// marked "(or near it)".
static source_names source_lines(const std::set<uintptr_t> &pcs)
{
    source_names lines = addr2line_lines(pcs);
    std::set<uintptr_t> earlier;
    for (uintptr_t pc : pcs)
        if (line_unknown(lines.call[pc]))
            for (uintptr_t back = 1; back <= merged_code_reach && back < pc; back++)
                earlier.insert(pc - back);
    source_names near = addr2line_lines(earlier);
    for (uintptr_t pc : pcs) {
        lines.own.emplace(pc, lines.call[pc]);  // every address named, if only by ""
        if (!line_unknown(lines.call[pc]))
            continue;
        for (uintptr_t back = 1; back <= merged_code_reach && back < pc; back++)
            if (!line_unknown(near.call[pc - back])) {
                lines.call[pc] = near.call[pc - back] + " (or near it)";
                lines.own[pc] = near.own[pc - back] + " (or near it)";
                break;
            }
    }
    return lines;
}

static const char *kind_name(finding_kind k)
{
    switch (k) {
    case finding_kind::raw_or_war: return "hazard";
    case finding_kind::waw: return "hazard";
    case finding_kind::uninitialised_read: return "uninitialised_shared_read";
    case finding_kind::out_of_bounds: return "out_of_bounds";
    case finding_kind::host_memory: return "host_memory";
    case finding_kind::divergent_barrier: return "divergent_barrier";
    case finding_kind::block_race: return "block_race";
    }
    return "other";
}

static std::string coords(uint3 v) { return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")"; }

static std::string describe(const finding &f, std::map<uintptr_t, std::string> &at)
{
    std::string here = at[f.pc1], there = at[f.pc2];
    std::string block = "block " + coords(f.block) + ": ";
    std::string t1 = "thread " + coords(f.thread1), t2 = "thread " + coords(f.thread2);
    // Two lanes of one warp: code written for warps that ran in lockstep
    // (a reduction's last steps with no barrier) needs __syncwarp() now.
    std::string barrier = f.same_warp ? "a __syncwarp() (or __syncthreads())" : "a __syncthreads()";
    std::string lanes = f.same_warp ? " (the two are lanes of one warp, and a warp's lanes do not run in lockstep)" : "";
    switch (f.kind) {
    case finding_kind::raw_or_war: {
        std::string write_at = f.first_is_store ? here : there, read_at = f.first_is_store ? there : here;
        std::string writer = f.first_is_store ? t1 : t2, reader = f.first_is_store ? t2 : t1;
        if (!f.write_after_read)
            return "read-after-write hazard, " + block + reader + " read at " + read_at +
                   " a shared word that " + writer + " writes at " + write_at +
                   ", with no barrier between them: " + barrier + " is missing after " + write_at + lanes;
        return "write-after-read hazard, " + block + writer + " wrote at " + write_at + " a shared word that " +
               reader + " reads at " + read_at + " in the same phase: " + barrier + " is missing after " + read_at +
               lanes;
    }
    case finding_kind::waw:
        return "write-after-write hazard, " + block + t1 + " and " + t2 + " both wrote one shared word (at " + here +
               " and " + there + ") with no barrier between them" + lanes;
    case finding_kind::uninitialised_read: {
        // Which slot, when the debug information says: "As[1][5] (declared at line 28)".
        std::string slot = f.shared_byte >= 0 ? shared_slot_name(f.shared_byte) : "";
        if (slot.empty())
            return "shared memory read before anything wrote it, " + block + t1 + " at " + here;
        return "shared memory read before anything wrote it, " + block + t1 + " read " + slot + " at " + here +
               ", which no thread of the block had written";
    }
    case finding_kind::out_of_bounds:
        return std::string("out-of-bounds ") + (f.first_is_store ? "write" : "read") + " at " + here + ", " + block +
               t1 + " touched " + f.detail;
    case finding_kind::host_memory:
        return std::string("host memory ") + (f.first_is_store ? "written" : "read") + " by a kernel at " + here +
               ", " + block + t1 + " used a pointer that is not device memory (a host array passed to the kernel?)";
    case finding_kind::divergent_barrier:
        return "barrier in divergent code, " + block + "threads wait at different __syncthreads() (" + here + " and " +
               there + ") in the same phase: every thread must reach the same barriers";
    case finding_kind::block_race:
        if (f.block_scoped)
            return std::string("race between blocks, ") + block + t1 + " updated " + f.detail + " at " + here +
                   " with an atomic of block scope (atomic..._block), which block " + coords(f.block2) +
                   " had written at " + there + " in the same launch: such an atomic is atomic only among the "
                   "threads of one block, so on a GPU the two blocks' updates are not ordered and one may be "
                   "lost; use the atomic of device scope (atomicAdd, not atomicAdd_block)";
        if (f.after_atomic)
            return std::string("race between blocks, ") + block + t1 + (f.first_is_store ? " stored " : " read ") +
                   f.detail + " at " + here + ", which block " + coords(f.block2) + " had updated atomically at " +
                   there + " in the same launch: blocks run in no set order, so on a GPU the two may come either "
                   "way round (and an update is lost); every block's access to a word others update atomically "
                   "must be atomic too, or come in a later launch";
        return std::string("race between blocks, ") + block + t1 + (f.first_is_store ? " atomically updated " : " read ") +
               f.detail + " at " + here + ", which block " + coords(f.block2) + " had stored at " + there +
               " in the same launch: blocks run in no set order, so on a GPU the two may come either way round "
               "(and an update is lost); add the parts with atomicAdd, or in a later launch";
    }
    return "";
}

// The text of a source line, "matmul.cu:49" or "matmul.cu:49 (or near
// it)", trimmed; "" when the file cannot be read.
static std::string source_text(const std::string &where)
{
    auto [file, line] = file_and_line(where);
    auto path = source_paths.find(file);
    if (path == source_paths.end() || line <= 0)
        return "";
    FILE *f = fopen(path->second.c_str(), "r");
    if (!f)
        return "";
    char buf[1024];
    std::string text;
    for (long n = 1; fgets(buf, sizeof buf, f); n++)
        if (n == line) {
            text = buf;
            break;
        }
    fclose(f);
    size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : text.substr(b, e - b + 1);
}

// A hazard finding as the picture shows it: its two accesses in program
// order, the one that must come first on top.
static hazard_sample hazard_of(const finding &f, std::map<uintptr_t, std::string> &at)
{
    hazard_sample h;
    h.block = "block " + coords(f.block);
    std::string slot = f.shared_byte >= 0 ? shared_slot_name(f.shared_byte) : "";
    h.slot = slot.substr(0, slot.find(" ("));
    h.count = f.count;
    auto step = [&](uintptr_t pc, uint3 thread, bool store) {
        return hazard_step{"thread " + coords(thread), store, at[pc], source_text(at[pc])};
    };
    if (f.kind == finding_kind::waw) {
        h.kind = "write-after-write";
        h.first = step(f.pc2, f.thread2, true);
        h.second = step(f.pc1, f.thread1, true);
        return h;
    }
    hazard_step write = f.first_is_store ? step(f.pc1, f.thread1, true) : step(f.pc2, f.thread2, true);
    hazard_step read = f.first_is_store ? step(f.pc2, f.thread2, false) : step(f.pc1, f.thread1, false);
    h.kind = f.write_after_read ? "write-after-read" : "read-after-write";
    h.first = f.write_after_read ? read : write;
    h.second = f.write_after_read ? write : read;
    h.missing_after = h.first.where;
    // As describe() words it: the warp's own barrier
    // is enough, and a block-wide one, the lessons' first, works too.
    if (f.same_warp)
        h.barrier = "__syncwarp() (or __syncthreads())";
    return h;
}

// A site's counts per source line and kind: one line of source is many
// code addresses where the compiler unrolled a loop or inlined a function
// at several calls, and the report speaks of lines.  In source order.
struct line_site {
    std::string where;
    bool store;
    site_stats counts;
    // Global sites: the most sectors per request of one code address, and
    // whether one is uncoalesced (one call of a helper may be, beside
    // another that is not: the sum would hide it).
    double worst_sectors_per_request = 0;
    bool uncoalesced = false;
};
static bool is_uncoalesced(const site_stats &s)
{
    return s.requests && s.sectors > std::max(2 * s.ideal_sectors, 8 * s.requests);
}
static std::vector<line_site> by_line(const std::map<std::pair<uintptr_t, bool>, site_stats> &sites,
                                      const std::map<uintptr_t, std::string> &own)
{
    std::map<std::pair<std::string, bool>, line_site> merged;
    for (auto &s : sites) {
        const std::string &where = own.at(s.first.first);
        line_site &l = merged[{where, s.first.second}];
        l.where = where;
        l.store = s.first.second;
        site_stats &d = l.counts;
        d.requests += s.second.requests;
        d.sectors += s.second.sectors;
        d.ideal_sectors += s.second.ideal_sectors;
        d.wavefronts += s.second.wavefronts;
        d.ideal_wavefronts += s.second.ideal_wavefronts;
        d.max_degree = std::max(d.max_degree, s.second.max_degree);
        if (s.second.requests)
            l.worst_sectors_per_request =
                std::max(l.worst_sectors_per_request, (double)s.second.sectors / s.second.requests);
        l.uncoalesced = l.uncoalesced || is_uncoalesced(s.second);
    }
    std::vector<line_site> lines;
    for (auto &m : merged)
        lines.push_back(m.second);
    std::stable_sort(lines.begin(), lines.end(), [](const line_site &a, const line_site &b) {
        return source_order(a.where) < source_order(b.where);
    });
    return lines;
}

void print_report(launch_totals &t)
{
    std::sort(t.findings.begin(), t.findings.end(), found_earlier);
    std::set<uintptr_t> pcs;
    for (auto &s : t.global_sites)
        pcs.insert(s.first.first);
    for (auto &s : t.shared_sites)
        pcs.insert(s.first.first);
    for (auto &f : t.findings) {
        if (f.pc1)
            pcs.insert(f.pc1);
        if (f.pc2)
            pcs.insert(f.pc2);
    }
    source_names names = source_lines(pcs);
    auto &at = names.call;  // findings: the kernel's own lines
    const auto &own = names.own;  // traffic: each access's own line
    if (t.hazard_across_warps)
        for (auto &f : t.findings)
            f.same_warp = false;
    for (auto &s : t.global_sites) {
        (s.first.second ? t.store_requests : t.load_requests) += s.second.requests;
        (s.first.second ? t.store_sectors : t.load_sectors) += s.second.sectors;
        if (!s.first.second)
            t.load_sectors_fewest += s.second.ideal_sectors;
    }
    for (auto &s : t.shared_sites) {
        (s.first.second ? t.bank_conflicts_st : t.bank_conflicts_ld) += s.second.wavefronts - s.second.ideal_wavefronts;
        t.shared_column_stores += s.second.column_requests;
    }
    const unsigned long long ld_req = t.load_requests, ld_sec = t.load_sectors, st_req = t.store_requests,
                             st_sec = t.store_sectors;

    FILE *o = stderr;
    const char *file = strrchr(launch_site.file, '/');
    fprintf(o, "[check] kernel launched at %s:%d, grid %s, block %s, %llu threads in %llu blocks\n",
            file ? file + 1 : launch_site.file, launch_site.line, coords(uint3(launch_grid)).c_str(),
            coords(uint3(launch_block)).c_str(), t.threads, t.blocks);
    fprintf(o, "[check]   global loads:  %llu (%.2f per thread, at most %llu)\n", t.global_loads,
            t.threads ? (double)t.global_loads / t.threads : 0.0, t.max_loads_per_thread);
    fprintf(o, "[check]   global stores: %llu (%.2f per thread, at most %llu)\n", t.global_stores,
            t.threads ? (double)t.global_stores / t.threads : 0.0, t.max_stores_per_thread);
    fprintf(o, "[check]   coalescing: %.2f sectors of 32 bytes per warp-wide load request, %.2f per store request\n",
            ld_req ? (double)ld_sec / ld_req : 0.0, st_req ? (double)st_sec / st_req : 0.0);
    for (auto &s : by_line(t.global_sites, own))
        if (s.uncoalesced)
            fprintf(o, "[check]     %s at %s: %.1f sectors per request (uncoalesced: the lanes of a warp touch "
                       "addresses far apart)\n",
                    s.store ? "store" : "load", s.where.c_str(), s.worst_sectors_per_request);
    fprintf(o, "[check]   shared loads: %llu, shared stores: %llu; one block used %llu shared words (%llu bytes)%s\n",
            t.shared_loads, t.shared_stores, t.shared_words, 4 * t.shared_words,
            t.shared_span_words > t.shared_words
                ? (", spread over " + std::to_string(t.shared_span_words) + " with " + std::to_string(t.shared_gaps) +
                   " gaps of unused words (padding, or arrays placed apart)").c_str()
                : "");
    // What stages 05 and 06 grade as a transposed tile (grader/structure.c).
    if (t.shared_column_stores)
        fprintf(o, "[check]   of those stores, %llu warp-wide requests go down a column (neighbour lanes 8 or more "
                   "words apart: a tile stored transposed)\n",
                t.shared_column_stores);
    if (t.shared_phases)
        fprintf(o, "[check]   stretches between barriers using shared memory: %llu; %llu of them read what an earlier "
                   "one stored while storing what a later one reads (double buffering)\n",
                t.shared_phases, t.overlapped_phases);
    if (t.tensor_core_macs)
        fprintf(o, "[check]   tensor cores: %llu multiply-adds in tensor-core calls (wmma::mma_sync, mma_m16n8k8_tf32)\n", t.tensor_core_macs);
    fprintf(o, "[check]   bank conflicts: %llu extra wavefronts on loads, %llu on stores\n", t.bank_conflicts_ld,
            t.bank_conflicts_st);
    for (auto &s : by_line(t.shared_sites, own))
        if (s.counts.max_degree > 1)
            fprintf(o, "[check]     %u-way bank conflict at %s (%s, %llu requests, %llu extra wavefronts)\n",
                    s.counts.max_degree, s.where.c_str(), s.store ? "store" : "load", s.counts.requests,
                    s.counts.wavefronts - s.counts.ideal_wavefronts);
    fprintf(o, "[check]   hazards: %llu; never-written shared reads: %llu; out of bounds: %llu; host memory: %llu; "
               "divergent barriers: %llu; races between blocks: %llu\n",
            t.hazards, t.uninitialised_shared_reads, t.out_of_bounds, t.host_accesses, t.divergent_barriers,
            t.block_races);
    // The same sentence can come from several accesses on one line (As and
    // Bs loads, say): print each once, with the count of all.
    // Which threads were involved does not make two findings different.
    struct line { std::string key, text; unsigned long long count; };
    std::vector<line> lines;
    for (auto &f : t.findings) {
        finding anonymous = f;
        anonymous.block = anonymous.block2 = anonymous.thread1 = anonymous.thread2 = uint3{0, 0, 0};
        anonymous.detail = anonymous.kind == finding_kind::block_race ? "" : anonymous.detail;
        anonymous.shared_byte = -1;  // one line per code site, whichever slot it read
        if (anonymous.kind == finding_kind::raw_or_war && !anonymous.first_is_store) {
            std::swap(anonymous.pc1, anonymous.pc2);
            anonymous.first_is_store = true;
        }
        std::string key = describe(anonymous, at);
        auto same = std::find_if(lines.begin(), lines.end(), [&](const line &l) { return l.key == key; });
        if (same != lines.end())
            same->count += f.count;
        else
            lines.push_back(line{key, describe(f, at), f.count});
    }
    for (size_t i = 0; i < lines.size() && i < max_examples; i++)
        fprintf(o, "[check]     %s%s\n", lines[i].text.c_str(),
                lines[i].count > 1 ? (" (" + std::to_string(lines[i].count) + " times)").c_str() : "");

    // A picture of the worst shared access site (the highest conflict
    // degree; of sites as bad, the first in the source, not in the machine
    // code, whose order is the compiler's), for make check.
    if (const char *path = getenv("SIM_CHECK_PICTURE")) {
        const std::pair<const std::pair<uintptr_t, bool>, site_stats> *pick = nullptr;
        for (auto &site : t.shared_sites)
            if (!site.second.worst.lane_bytes.empty() &&
                (!pick || site.second.worst.degree > pick->second.worst.degree ||
                 (site.second.worst.degree == pick->second.worst.degree &&
                  source_order(own.at(site.first.first)) < source_order(own.at(pick->first.first)))))
                pick = &site;
        if (pick && write_access_picture(path, pick->second.worst, own.at(pick->first.first)))
            fprintf(o, "[check]   picture of the worst shared access (%s): %s\n", own.at(pick->first.first).c_str(),
                    path);
    }

    // A picture of the first hazard, for make check.
    if (const char *path = getenv("SIM_CHECK_HAZARD_PICTURE"))
        for (auto &f : t.findings)
            if (f.kind == finding_kind::raw_or_war || f.kind == finding_kind::waw) {
                hazard_sample h = hazard_of(f, at);
                // Counted as the text above counts it: this pair of lines, either way round.
                h.count = 0;
                for (auto &g : t.findings)
                    if (g.kind == f.kind && ((at[g.pc1] == at[f.pc1] && at[g.pc2] == at[f.pc2]) ||
                                             (at[g.pc1] == at[f.pc2] && at[g.pc2] == at[f.pc1])))
                        h.count += g.count;
                if (write_hazard_picture(path, h))
                    fprintf(o, "[check]   picture of the first hazard (%s): %s\n", h.kind.c_str(), path);
                break;
            }

    // One line per launch for programs (the grader, the timing report).
    if (const char *path = getenv("SIM_CHECK_OUT")) {
        if (FILE *m = fopen(path, "a")) {
            fprintf(m, "launch=%llu site=%s:%d grid=%u,%u,%u block=%u,%u,%u", launch_serial,
                    file ? file + 1 : launch_site.file, launch_site.line, launch_grid.x, launch_grid.y, launch_grid.z,
                    launch_block.x, launch_block.y, launch_block.z);
            // Every counter, by the name common/check_counters.h gives it.
#define WRITE_COUNTER(name, merge, meaning) fprintf(m, " " #name "=%llu", t.name);
            CHECK_COUNTERS(WRITE_COUNTER)
#undef WRITE_COUNTER
            fprintf(m, "\n");
            for (auto &s : by_line(t.shared_sites, own))
                if (s.counts.max_degree > 1)
                    fprintf(m, "finding launch=%llu kind=bank_conflict %u-way %s at %s\n", launch_serial,
                            s.counts.max_degree, s.store ? "store" : "load", s.where.c_str());
            // Once per text, whichever slot it names: an unrolled loop makes
            // one source line many code addresses, each its own finding.
            std::set<std::string> written;
            for (auto &f : t.findings) {
                finding any_slot = f;
                any_slot.shared_byte = -1;
                if (written.insert(describe(any_slot, at)).second)
                    fprintf(m, "finding launch=%llu kind=%s %s\n", launch_serial, kind_name(f.kind),
                            describe(f, at).c_str());
            }
            fclose(m);
        }
    }
}

}  // namespace sim::checking
