# The simulator's counts as the report, the lessons, the slides and the
# claims read them, defined once.  A row of counters.tsv is
#   label <TAB> n <TAB> name=value name=value ...
# with the names of common/check_counters.h.  Load this file before the
# program that uses it (common/report/report_awk.sh does).

# read_counts(FIELD, V): the name=value pairs of FIELD into the array V.
function read_counts(field, v,    m, i, kv, p) {
    delete v
    m = split(field, kv, " ")
    for (i = 1; i <= m; i++) { split(kv[i], p, "="); v[p[1]] = p[2] }
    return m
}

# count(V, N, NAME): a counter of V at size N, or one of the numbers derived
# from them; "" when the row does not have what it needs.
#   loads_per_element     floats loaded from global memory per element of C:
#                         bytes over 4 (a float4 load brings four, so reuse is
#                         compared, not the width of the loads) over n*n
#   shared_words_per_fma  4-byte words read from shared memory per
#                         multiply-add (there are n^3 of them)
#   sectors_per_request   32-byte sectors per warp-wide global load request
function count(v, n, name) {
    if (name == "loads_per_element")
        return ("global_load_bytes" in v) ? v["global_load_bytes"] / 4 / (n * n) : ""
    if (name == "shared_words_per_fma")
        return ("shared_load_bytes" in v) ? v["shared_load_bytes"] / 4 / (n * n * n) : ""
    if (name == "sectors_per_request")
        return ("load_requests" in v) && v["load_requests"] > 0 ? v["load_sectors"] / v["load_requests"] : ""
    return (name in v) ? v[name] : ""
}

# shown_intensity(I): a roofline-levels.tsv intensity (FLOP per byte) as the
# report and the lessons print it: "—" where the level has no point ("-"),
# two decimals below 10, none above.
function shown_intensity(i) { return i == "-" ? "—" : (i < 10 ? sprintf("%.2f", i) : sprintf("%.0f", i)) }
