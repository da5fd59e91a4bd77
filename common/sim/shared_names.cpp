// See shared_names.h.  The debug information is read through binutils'
// readelf (installed with addr2line, which check mode already uses), whose
// text form is stable across the binutils releases the kit runs on: each
// DIE is a "<depth><offset>: Abbrev Number: n (DW_TAG_...)" line followed by
// "<offset> DW_AT_...: value" lines.  A variable's place in the block is
// its DW_AT_location; where the compiler gives none (clang building for
// aarch64, 14 to 21 at least, writes no location for a thread-local
// variable), the symbol table's entry for it, found by its mangled name,
// tells the same.
#include "shared_names.h"

#include "program_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace sim {
namespace {

struct die {
    std::string tag, name;
    std::string linkage;      // DW_AT_linkage_name: a function's or variable's mangled name
    unsigned long type = 0;   // the DIE its DW_AT_type points at, or 0
    unsigned long parent = 0; // the DIE this one is inside (0: the compile unit)
    unsigned long origin = 0; // DW_AT_specification or DW_AT_abstract_origin: a declaration it completes
    long byte_size = -1, decl_line = -1, tls_offset = -1;
    bool has_location = false;
    std::vector<long> dims;   // an array type's extents, outermost first
};

struct debug_info {
    std::map<unsigned long, die> dies;
    std::vector<unsigned long> tls_variables;  // DW_TAG_variable DIEs that live in the TLS block
    std::vector<unsigned long> variables;      // every DW_TAG_variable DIE
};

// The number in an attribute's value: "16", "0xf", "(indirect ...): 16".
long leading_number(const char *v) { return strtol(v, nullptr, 0); }

std::string trimmed(const char *v)
{
    const char *start = v;
    while (*start == ' ' || *start == '\t')
        start++;
    std::string s = start;
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.pop_back();
    return s;
}

void read_attribute(die &d, unsigned long array_owner, debug_info &info, const char *attr, const char *value)
{
    if (!strcmp(attr, "DW_AT_name")) {
        // "(indirect string, offset: 0xca): As" or plain "As".
        const char *colon = strstr(value, "): ");
        d.name = trimmed(colon ? colon + 3 : value);
    } else if (!strcmp(attr, "DW_AT_linkage_name") || !strcmp(attr, "DW_AT_MIPS_linkage_name")) {
        const char *colon = strstr(value, "): ");
        d.linkage = trimmed(colon ? colon + 3 : value);
    } else if (!strcmp(attr, "DW_AT_type")) {
        if (const char *lt = strstr(value, "<0x"))
            d.type = strtoul(lt + 1, nullptr, 16);
    } else if (!strcmp(attr, "DW_AT_specification") || !strcmp(attr, "DW_AT_abstract_origin")) {
        if (const char *lt = strstr(value, "<0x"))
            d.origin = strtoul(lt + 1, nullptr, 16);
    } else if (!strcmp(attr, "DW_AT_byte_size")) {
        d.byte_size = leading_number(value);
    } else if (!strcmp(attr, "DW_AT_decl_line")) {
        d.decl_line = leading_number(value);
    } else if (!strcmp(attr, "DW_AT_count") || !strcmp(attr, "DW_AT_upper_bound")) {
        if (d.tag == "DW_TAG_subrange_type" && array_owner) {
            long n = leading_number(value) + (!strcmp(attr, "DW_AT_upper_bound") ? 1 : 0);
            info.dies[array_owner].dims.push_back(n);
        }
    } else if (!strcmp(attr, "DW_AT_location")) {
        d.has_location = true;
        // A thread-local variable: "(DW_OP_const8u: 1024; DW_OP_GNU_push_tls_address ...)"
        // (or DW_OP_form_tls_address); the constant is its offset in the block.
        const char *op = strstr(value, "DW_OP_const");
        if (op && (strstr(value, "push_tls_address") || strstr(value, "form_tls_address"))) {
            if (const char *colon = strchr(op, ':'))
                d.tls_offset = strtol(colon + 1, nullptr, 0);
        }
    }
}

// The program's thread-local symbols that it defines: name -> offset in
// its TLS block ("    89: 0000000000000000   128 TLS     LOCAL  DEFAULT   19 _ZZ...E2As").
std::map<std::string, long> tls_symbols()
{
    std::map<std::string, long> symbols;
    std::string cmd = "readelf --syms --wide " + program_file_for_shell() + " 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p)
        return symbols;
    char line[4096], type[32], section[32], name[2048];
    unsigned long value;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, " %*[0-9]: %lx %*s %31s %*s %*s %31s %2047s", &value, type, section, name) == 4 &&
            !strcmp(type, "TLS") && strcmp(section, "UND") != 0)
            symbols.emplace(name, (long)value);
    pclose(p);
    return symbols;
}

// The mangled name of a function's DIE, through the declaration it completes.
std::string linkage_of(const debug_info &info, unsigned long offset)
{
    for (int hops = 0; offset && hops < 8; hops++) {
        auto it = info.dies.find(offset);
        if (it == info.dies.end())
            break;
        if (!it->second.linkage.empty())
            return it->second.linkage;
        offset = it->second.origin;
    }
    return "";
}

// Variables the debug information gives no location, placed by the symbol
// of the same name: a function's static local As is _ZZ<the function's
// mangled name without _Z>E2As; one at namespace scope is its own linkage
// name, or its plain name in the global namespace.
void place_by_symbols(debug_info &info)
{
    std::vector<unsigned long> unplaced;
    for (unsigned long v : info.variables)
        if (!info.dies[v].has_location && !info.dies[v].name.empty())
            unplaced.push_back(v);
    if (unplaced.empty())
        return;
    std::map<std::string, long> symbols = tls_symbols();
    for (unsigned long v : unplaced) {
        die &var = info.dies[v];
        std::string symbol = var.linkage.empty() ? var.name : var.linkage;
        // A static in a nested block of a function is still the function's.
        unsigned long scope = var.parent;
        while (scope && info.dies[scope].tag == "DW_TAG_lexical_block")
            scope = info.dies[scope].parent;
        if (scope && info.dies[scope].tag == "DW_TAG_subprogram") {
            std::string function = linkage_of(info, scope);
            if (function.compare(0, 2, "_Z") != 0)
                continue;
            symbol = "_ZZ" + function.substr(2) + "E" + std::to_string(var.name.size()) + var.name;
        }
        auto it = symbols.find(symbol);
        if (it != symbols.end()) {
            var.tls_offset = it->second;
            info.tls_variables.push_back(v);
        }
    }
}

debug_info read_debug_info()
{
    debug_info info;
    std::string cmd = "readelf --debug-dump=info " + program_file_for_shell() + " 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p)
        return info;
    char line[4096];
    unsigned long current = 0, array_owner = 0;
    int array_depth = -1;
    std::vector<unsigned long> open;  // the DIE at each depth on the way down to this one
    while (fgets(line, sizeof line, p)) {
        int depth;
        unsigned long offset;
        char tag[128];
        if (sscanf(line, " <%d><%lx>: Abbrev Number: %*d (%127[^)])", &depth, &offset, tag) == 3) {
            current = offset;
            die &d = info.dies[offset];
            d.tag = tag;
            if (depth >= 0 && depth < 64) {
                open.resize((size_t)depth + 1);
                open[(size_t)depth] = offset;
                d.parent = depth > 1 ? open[(size_t)depth - 1] : 0;
                if (d.tag == "DW_TAG_variable")
                    info.variables.push_back(offset);
            }
            if (d.tag == "DW_TAG_array_type") {
                array_owner = offset;
                array_depth = depth;
            } else if (depth <= array_depth) {
                array_owner = 0;  // past the array's subrange children
                array_depth = -1;
            }
            continue;
        }
        if (!current)
            continue;
        // "    <54e4>   DW_AT_decl_line   : 28"
        const char *at = strstr(line, "DW_AT_");
        const char *colon = at ? strchr(at, ':') : nullptr;
        if (!at || !colon)
            continue;
        std::string attr(at, strcspn(at, " \t:"));
        die &d = info.dies[current];
        read_attribute(d, d.tag == "DW_TAG_subrange_type" ? array_owner : 0, info, attr.c_str(), colon + 1);
        if (d.tag == "DW_TAG_variable" && d.tls_offset >= 0 && attr == "DW_AT_location")
            info.tls_variables.push_back(current);
    }
    pclose(p);
    place_by_symbols(info);
    return info;
}

// A type's size in bytes, through typedefs, qualifiers and arrays.
long type_size(const debug_info &info, unsigned long type, int hops = 0)
{
    auto it = info.dies.find(type);
    if (it == info.dies.end() || hops > 16)
        return -1;
    const die &t = it->second;
    if (t.tag == "DW_TAG_array_type") {
        long n = 1;
        for (long d : t.dims)
            n *= d;
        long element = type_size(info, t.type, hops + 1);
        return element < 0 ? -1 : n * element;
    }
    if (t.byte_size >= 0)
        return t.byte_size;
    return t.type ? type_size(info, t.type, hops + 1) : -1;
}

// The array type under typedefs and qualifiers, or nullptr.
const die *array_type(const debug_info &info, unsigned long type, int hops = 0)
{
    auto it = info.dies.find(type);
    if (it == info.dies.end() || hops > 16)
        return nullptr;
    if (it->second.tag == "DW_TAG_array_type")
        return &it->second;
    if (it->second.tag == "DW_TAG_typedef" || it->second.tag == "DW_TAG_const_type" ||
        it->second.tag == "DW_TAG_volatile_type")
        return array_type(info, it->second.type, hops + 1);
    return nullptr;
}

}  // namespace

std::string shared_slot_name(long byte_offset)
{
    static std::once_flag once;
    static debug_info info;
    std::call_once(once, [] { info = read_debug_info(); });
    for (unsigned long v : info.tls_variables) {
        const die &var = info.dies[v];
        long size = type_size(info, var.type);
        if (var.name.empty() || size <= 0 || byte_offset < var.tls_offset || byte_offset >= var.tls_offset + size)
            continue;
        std::string name = var.name;
        if (const die *array = array_type(info, var.type)) {
            long element = type_size(info, array->type);
            if (element > 0 && !array->dims.empty()) {
                long index = (byte_offset - var.tls_offset) / element;
                std::vector<long> at(array->dims.size());
                for (size_t d = array->dims.size(); d-- > 0;) {
                    at[d] = index % array->dims[d];
                    index /= array->dims[d];
                }
                for (long i : at)
                    name += "[" + std::to_string(i) + "]";
            }
        }
        if (var.decl_line > 0)
            name += " (declared at line " + std::to_string(var.decl_line) + ")";
        return name;
    }
    return "";
}

}  // namespace sim
