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
