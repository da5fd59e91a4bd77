# shellcheck shell=bash
# Sourced: counts_awk, awk over counters.tsv with the counts defined once.
#
# counts_awk PROGRAM [NAME=VALUE...] FILE...: awk with tab-separated fields
# and common/report/counts.awk's functions (read_counts, count) loaded
# before PROGRAM, so every table and check derives its numbers from the
# simulator's counters the same way.  NAME=VALUE operands set awk variables
# before the file after them is read (as -v would, but not yet in BEGIN).
counts_awk_library=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/counts.awk
counts_awk() {
    local program=$1
    shift
    awk -F'\t' "$(cat "$counts_awk_library")
$program" "$@"
}
