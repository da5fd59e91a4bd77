# shellcheck shell=bash
# Sourced: report_awk, awk over the report's tables with their readers
# defined once; machine, a value of a report's machine.tsv.
#
# report_awk PROGRAM [NAME=VALUE...] FILE...: awk with tab-separated fields
# and two libraries loaded before PROGRAM: common/report/counts.awk
# (read_counts, count: the simulator's counts and the numbers derived from
# them) and common/report/columns.awk (column: a field by its header's
# name).  NAME=VALUE operands set awk variables before the file after them
# is read (as -v would, but not yet in BEGIN).
report_awk_libraries=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report_awk() {
    local program=$1
    shift
    awk -F'\t' "$(cat "$report_awk_libraries/counts.awk" "$report_awk_libraries/columns.awk")
$program" "$@"
}

# machine DIR KEY: one value from a report's machine.tsv (empty if absent).
machine() {
    [ -f "$1/machine.tsv" ] || return 0
    awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$1/machine.tsv"
}
