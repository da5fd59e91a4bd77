/* What the parts of test_check_mode share: the headers, reading back the
 * checker's machine-readable report after one launch (checked_run), and the
 * assertions on it.  Each part adds its test cases to the suite through its
 * add_*_tests function; main.cu runs them.
 */
#ifndef SIM_TESTS_CHECK_MODE_TESTS_H
#define SIM_TESTS_CHECK_MODE_TESTS_H

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

// After the C++ headers: check.h defines a macro `fail` that <ios> would trip on.
#include <check.h>

#include "stderr_capture.h"
#include "suite_support.h"

// Each part defines this_file_path() as its own __FILE__ (here it would
// name this header).  The helpers below use it, so each part has its own
// copy of them: they sit in an unnamed namespace, checked_run's members too.
static const char *this_file_path();

namespace {

static inline float *dev_floats(size_t count, float first = 1.0f)
{
    void *p = nullptr;
    CUDA_OK(cudaMalloc(&p, count * sizeof(float)));
    ck_assert_ptr_nonnull(p);
    std::vector<float> h(count);
    for (size_t i = 0; i < count; i++)
        h[i] = first + (float)(i % 97);
    CUDA_OK(cudaMemcpy(p, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    return static_cast<float *>(p);
}

static inline std::vector<float> to_host(const float *d, size_t count)
{
    std::vector<float> h(count);
    CUDA_OK(cudaMemcpy(h.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

static inline bool contains(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

// The file name the checker prints for the part's lines (addr2line gives
// the path the rewriter's #line names; the checker keeps its last part).
static inline std::string this_file_name()
{
    const char *slash = strrchr(this_file_path(), '/');
    return slash ? slash + 1 : this_file_path();
}

// One line of the part's source file, 1-based ("" if there is none).
static inline std::string source_line(int number)
{
    std::ifstream in(this_file_path());
    std::string line;
    for (int i = 1; std::getline(in, line); i++)
        if (i == number)
            return line;
    return "";
}

// ------------------------------------------------ the machine-readable report

struct finding_line {
    unsigned long long launch = 0;
    std::string kind;  // the kind= token, e.g. "hazard" or "bank_conflict"
    std::string text;  // everything after the kind= token
    std::string whole;
};

struct check_report {
    std::vector<std::map<std::string, std::string>> launches;  // one key=value map per launch line
    std::vector<finding_line> findings;
    std::string raw;     // the SIM_CHECK_OUT file as written
    std::string human;   // what the checker printed on stderr

    // The value of `key` on the only launch line, as a number.
    unsigned long long value(const char *key) const
    {
        ck_assert_msg(launches.size() == 1, "expected exactly one launch line, found %zu in:\n%s", launches.size(),
                      raw.c_str());
        auto it = launches[0].find(key);
        ck_assert_msg(it != launches[0].end(), "no %s= on the launch line:\n%s", key, raw.c_str());
        const std::string &v = it->second;
        char *end = nullptr;
        unsigned long long n = strtoull(v.c_str(), &end, 10);
        ck_assert_msg(!v.empty() && *end == '\0', "%s=%s is not a whole number", key, v.c_str());
        return n;
    }

    std::string field(const char *key) const
    {
        ck_assert_msg(launches.size() == 1, "expected exactly one launch line in:\n%s", raw.c_str());
        auto it = launches[0].find(key);
        ck_assert_msg(it != launches[0].end(), "no %s= on the launch line:\n%s", key, raw.c_str());
        return it->second;
    }

    // Findings whose text contains every one of `parts`.
    std::vector<const finding_line *> matching(std::initializer_list<const char *> parts) const
    {
        std::vector<const finding_line *> found;
        for (const finding_line &f : findings) {
            bool all = true;
            for (const char *p : parts)
                all = all && contains(f.whole, p);
            if (all)
                found.push_back(&f);
        }
        return found;
    }
};

// Splits "a=1 b=x:2 c=3" into {a:1, b:x:2, c:3}; false if a token has no '='.
static inline bool parse_pairs(const std::string &line, std::map<std::string, std::string> *out)
{
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
        size_t eq = w.find('=');
        if (eq == std::string::npos || eq == 0)
            return false;
        (*out)[w.substr(0, eq)] = w.substr(eq + 1);
    }
    return true;
}

// "finding launch=N kind=K text..." -> its parts; false if malformed.
static inline bool parse_finding(const std::string &line, finding_line *f)
{
    const std::string head = "finding launch=";
    if (line.compare(0, head.size(), head) != 0)
        return false;
    char *end = nullptr;
    f->launch = strtoull(line.c_str() + head.size(), &end, 10);
    if (end == line.c_str() + head.size() || strncmp(end, " kind=", 6) != 0)
        return false;
    const char *kind = end + 6;
    const char *space = strchr(kind, ' ');
    f->kind = space ? std::string(kind, space) : std::string(kind);
    f->text = space ? std::string(space + 1) : "";
    f->whole = line;
    return !f->kind.empty();
}

static inline check_report parse_report(const std::string &raw)
{
    check_report r;
    r.raw = raw;
    std::istringstream lines(raw);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        if (line.compare(0, 7, "launch=") == 0) {
            std::map<std::string, std::string> kv;
            ck_assert_msg(parse_pairs(line, &kv), "malformed launch line: %s", line.c_str());
            r.launches.push_back(kv);
        } else {
            finding_line f;
            ck_assert_msg(parse_finding(line, &f), "malformed line in the check output: %s", line.c_str());
            r.findings.push_back(f);
        }
    }
    return r;
}

// Set up before a test's launch: SIM_CHECK_OUT names a fresh empty file and
// stderr (the human report) goes to another; finish() reads both back.
class checked_run {
public:
    checked_run()
    {
        char name[] = "/tmp/test_check_mode.XXXXXX";
        int fd = mkstemp(name);
        ck_assert_int_ge(fd, 0);
        close(fd);
        path_ = name;
        ck_assert_int_eq(setenv("SIM_CHECK_OUT", path_.c_str(), 1), 0);
    }

    check_report finish()
    {
        std::string human = err_.finish();
        FILE *f = fopen(path_.c_str(), "r");
        ck_assert_ptr_nonnull(f);
        std::string raw = slurp(f);
        fclose(f);
        unlink(path_.c_str());
        unsetenv("SIM_CHECK_OUT");
        check_report r = parse_report(raw);
        r.human = human;
        ck_assert_msg(r.launches.size() == 1, "expected one launch line, got:\n%s\nstderr:\n%s", raw.c_str(),
                      human.c_str());
        ck_assert_msg(r.value("launch") == 1, "the first launch is not launch=1:\n%s", raw.c_str());
        for (const finding_line &fl : r.findings)
            ck_assert_msg(fl.launch == 1, "a finding of launch %llu: %s", fl.launch, fl.whole.c_str());
        ck_assert_msg(contains(r.field("site"), this_file_name() + ":"), "site=%s does not name %s",
                      r.field("site").c_str(), this_file_name().c_str());
        return r;
    }

private:
    static std::string slurp(FILE *f)
    {
        std::string text;
        rewind(f);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        return text;
    }

    std::string path_;
    stderr_capture err_;
};

#define EXPECT(report, key, want)                                                                        \
    do {                                                                                                 \
        unsigned long long got_ = (report).value(key), want_ = (unsigned long long)(want);               \
        ck_assert_msg(got_ == want_, "%s=%llu, want %llu; the check output:\n%s\nstderr:\n%s", key, got_, \
                      want_, (report).raw.c_str(), (report).human.c_str());                              \
    } while (0)

#define EXPECT_NO_FINDINGS(report)                                                                    \
    ck_assert_msg((report).findings.empty(), "expected no findings; the check output:\n%s\nstderr:\n%s", \
                  (report).raw.c_str(), (report).human.c_str())

// Exactly one finding line containing every part; returns it.
static inline const finding_line &one_finding(const check_report &r, std::initializer_list<const char *> parts)
{
    std::vector<const finding_line *> found = r.matching(parts);
    std::string wanted;
    for (const char *p : parts)
        wanted += std::string(" \"") + p + "\"";
    ck_assert_msg(found.size() == 1, "%zu finding lines contain%s; the check output:\n%s", found.size(),
                  wanted.c_str(), r.raw.c_str());
    return *found[0];
}

// Every count of a problem the checker looks for, apart from `except`.
static inline void expect_clean_except(const check_report &r, std::initializer_list<const char *> except)
{
    static const char *const problems[] = {"hazards", "uninitialised_shared_reads", "bank_conflicts_ld",
                                           "bank_conflicts_st", "out_of_bounds", "host_accesses",
                                           "divergent_barriers", "block_races"};
    for (const char *p : problems) {
        bool skip = false;
        for (const char *e : except)
            skip = skip || strcmp(p, e) == 0;
        if (!skip)
            EXPECT(r, p, 0);
    }
}

// The line number after "<this file>:" at the first place `after` occurs
// in `text` (0 if none).
static inline int line_after(const std::string &text, const std::string &after)
{
    size_t at = text.find(after);
    if (at == std::string::npos)
        return 0;
    std::string where = after + this_file_name() + ":";
    if (text.compare(at, where.size(), where) != 0)
        return 0;
    return atoi(text.c_str() + at + where.size());
}

// The hazard findings of a report (the machine lines give one example per
// pair of accesses, so one missing barrier gives several lines): there is
// at least one, each is a `kind` hazard, and each says the barrier is
// missing after a line of the part marked with `marker`.
static inline void expect_hazards(const check_report &r, const char *kind, const char *marker)
{
    ck_assert_msg(r.value("hazards") > 0, "no hazard found:\n%s", r.raw.c_str());
    std::vector<const finding_line *> hazards = r.matching({"hazard"});
    ck_assert_msg(!hazards.empty(), "no hazard finding:\n%s", r.raw.c_str());
    for (const finding_line *f : hazards) {
        ck_assert_msg(contains(f->text, kind) && contains(f->text, "missing after"), "expected a %s: %s", kind,
                      f->whole.c_str());
        ck_assert_msg(contains(f->text, "missing after " + this_file_name() + ":"), "%s", f->whole.c_str());
        int line = line_after(f->text, "missing after ");
        ck_assert_msg(contains(source_line(line), marker), "%s names line %d: \"%s\", not a \"%s\" line",
                      f->whole.c_str(), line, source_line(line).c_str(), marker);
    }
    ck_assert_msg(contains(r.human, kind) && contains(r.human, "missing after " + this_file_name() + ":"),
                  "the report:\n%s", r.human.c_str());
}

}  // namespace

void add_barrier_tests(Suite *s);
void add_traffic_tests(Suite *s);
void add_async_copy_tests(Suite *s);
void add_memory_kind_tests(Suite *s);
void add_no_false_finding_tests(Suite *s);
void add_block_race_tests(Suite *s);
void add_tensor_core_tests(Suite *s);

#endif
