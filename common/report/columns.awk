# Columns by name.  Every table report.sh writes (timings.tsv, sass.tsv,
# resources.tsv, counters.tsv, occupancy_api.tsv) starts with a line naming
# its columns; column(NAME) is that column of the current line, so no
# reader counts fields and a column added to a table moves nothing.
# Load this file before the program that uses it (report_awk.sh does).

FNR == 1 {
    delete column_of
    for (column_i = 1; column_i <= NF; column_i++) column_of[$column_i] = column_i
}

# column(NAME): the current line's field under the header NAME.  A name the
# file's header lacks stops awk with a message (exit 2), not a blank.
function column(name) {
    if (!(name in column_of)) {
        printf "%s: no column named %s\n", FILENAME, name > "/dev/stderr"
        exit 2
    }
    return $(column_of[name])
}

# sass_field(NAME): a number of the current sass.tsv line (make sass's hot
# loop), by the name claims and slides use: ffma, shared_loads,
# wide_shared_loads (16 bytes), instructions, shared_loads_per_ffma,
# instructions_per_ffma, hmma, generic_loads; "" where the line has none
# (no FFMA to divide by, a table made before a column was counted).
function sass_field(name,    wide) {
    if (name == "ffma") return column("ffma")
    if (name == "shared_loads") return column("lds")
    if (name == "instructions") return column("instructions")
    if (name == "wide_shared_loads") {
        wide = 0
        if (match(column("lds_by_width"), /16x[0-9]+/)) wide = substr(column("lds_by_width"), RSTART + 3, RLENGTH - 3)
        return wide
    }
    if (name == "shared_loads_per_ffma") return column("ffma") > 0 ? column("lds") / column("ffma") : ""
    if (name == "instructions_per_ffma") return column("ffma") > 0 ? column("instructions") / column("ffma") : ""
    if (name == "hmma") return ("hmma" in column_of) ? column("hmma") : ""
    if (name == "generic_loads") return ("ld" in column_of) ? column("ld") : ""
    return ""
}
