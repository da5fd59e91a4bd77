#!/usr/bin/env bash
# Every measured comparison the lessons, slides and README state in words
# is a row of common/report/claims.tsv, with the report numbers behind it.
# This checks both halves: the words are still in the file (a claim row
# whose sentence was rewritten is stale), and the committed report still
# supports them (a new report that contradicts a lesson fails make test
# until the lesson is rewritten).
#
#   common/report/check_claims.sh [CLAIMS_TSV]
#
# A row, tab-separated:  file  words  report  measure  left  relation  right
#   words     as the file says them (line breaks and runs of spaces count as one space)
#   report    a folder under reports/
#   measure   gflops@N                       timings.tsv, GFLOP/s at size N (the run must be ok)
#             sass:ffma, sass:shared_loads, sass:shared_loads_per_ffma, sass:instructions,
#             sass:instructions_per_ffma, sass:hmma,
#             sass:generic_loads             sass.tsv, the hot loop per trip
#             resources:registers, resources:blocks_per_sm, resources:occupancy
#             counter:NAME@N                 counters.tsv at size N; NAME is a counter of
#                                            common/check_counters.h or a number counts.awk
#                                            derives (loads_per_element, shared_words_per_fma,
#                                            sectors_per_request)
#             limit:NAME                     device_limits.tsv (make query); left is "-"
#             tune:STAGE:COLUMN@N            tune-STAGE.tsv (a stage's `make tune` table): a
#                                            column of the row at size N, such as gflops,
#                                            pct_cublas_tf32 or tensor_pipe_pct; left is
#                                            the row's shape ("experiment NAME" for one; an
#                                            "ablation NAME" row counts, wrong by design)
#             roofline:COLUMN                roofline-levels.tsv (plot.sh): a column of it,
#                                            such as flop_per_shared_byte, reached_pct (of
#                                            the lowest roof) or l2_reached_pct (of one)
#   left      a label of the report (a stage, a variant); label:kernel picks one kernel
#             of several (the first otherwise)
#   relation  <  <=  =  >=  >
#   right     a number, a label, or FACTOR*label (10*01-naive)
set -uo pipefail
. "$(dirname "$0")/../c_numbers.sh"   # C's numbers (1.5, not 1,5), whatever the locale
. "$(dirname "$0")/report_awk.sh"     # report_awk: the report tables read one way
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
claims=${1:-common/report/claims.tsv}

# value REPORT MEASURE LABEL: the number, or nothing when the report lacks it.
value() {
    local dir=reports/$1 measure=$2 label=${3%%:*} kernel=
    [[ "$3" == *:* ]] && kernel=${3#*:}
    case "$measure" in
        gflops@*)
            [ -f "$dir/timings.tsv" ] &&
                report_awk 'FNR > 1 && $1 == l && $2 == n && column("check") == "ok" { print column("gflops"); exit }' \
                    l="$label" n="${measure#gflops@}" "$dir/timings.tsv" ;;
        sass:*)
            [ -f "$dir/sass.tsv" ] &&
                report_awk 'FNR > 1 && $1 == l && (k == "" || $2 == k) { v = sass_field(f); if (v != "") print v; exit }' \
                    l="$label" k="$kernel" f="${measure#sass:}" "$dir/sass.tsv" ;;
        resources:*)
            [ -f "$dir/resources.tsv" ] &&
                report_awk 'FNR > 1 && $1 == l && (k == "" || index($2, k) == 1) {
                        if (f == "registers") print column("registers")
                        else if (f == "blocks_per_sm") print column("blocks_per_sm")
                        else if (f == "occupancy") print column("occupancy_pct")
                        exit
                    }' l="$label" k="$kernel" f="${measure#resources:}" "$dir/resources.tsv" ;;
        limit:*)
            [ -f "$dir/device_limits.tsv" ] &&
                awk -F'\t' -v k="${measure#limit:}" '$1 == k { print $2; exit }' "$dir/device_limits.tsv" ;;
        roofline:*)
            [ -f "$dir/roofline-levels.tsv" ] &&
                report_awk 'FNR > 1 && $1 == l { v = column(c); if (v != "-") print v; exit }' \
                    l="$label" c="${measure#roofline:}" "$dir/roofline-levels.tsv" ;;
        tune:*:*@*)
            local spec=${measure#tune:}
            local table=$dir/tune-${spec%%:*}.tsv column_at=${spec#*:}
            [ -f "$table" ] &&
                report_awk 'FNR > 1 && $1 == l && $2 == n && (column("check") == "ok" || column("check") == "wrong, by design") { v = column(c); if (v != "-") print v; exit }' \
                    l="$3" c="${column_at%@*}" n="${column_at##*@}" "$table" ;;
        counter:*@*)
            local name=${measure#counter:}
            [ -f "$dir/counters.tsv" ] &&
                report_awk '$1 == l && $2 == n {
                        read_counts($3, v)
                        if (count(v, n, c) != "") print count(v, n, c)
                        exit
                    }' l="$label" c="${name%@*}" n="${name##*@}" "$dir/counters.tsv" ;;
    esac
}

# holds A RELATION B: exit 0 when A RELATION B (within a relative 1e-9 for =).
holds() {
    awk -v a="$1" -v r="$2" -v b="$3" 'BEGIN {
        eq = (a - b <= 1e-9 * (a < 0 ? -a : a) + 1e-12) && (b - a <= 1e-9 * (a < 0 ? -a : a) + 1e-12)
        ok = (r == "<") ? a < b && !eq : (r == "<=") ? a < b || eq : (r == "=") ? eq : (r == ">=") ? a > b || eq : (r == ">") ? a > b && !eq : -1
        if (ok == -1) exit 2
        exit !ok }'
}

failed=0 checked=0
while IFS=$'\t' read -r file words report measure left relation right; do
    case "$file" in ''|'#'*) continue ;; esac
    checked=$((checked + 1))
    where="$file: \"$words\""
    if [ ! -f "$file" ]; then echo "claim: $file does not exist ($claims)"; failed=1; continue; fi
    # The file's text with every run of white space made one space.
    if ! tr -s ' \n\t' '   ' < "$file" | grep -qF -- "$words"; then
        echo "stale claim: $where is no longer in the file; update $claims"
        failed=1; continue
    fi
    a=$(value "$report" "$measure" "$left")
    factor=1 other=$right
    if [[ "$right" =~ ^-?[0-9.]+$ ]]; then b=$right; other=
    else
        [[ "$right" == *'*'* ]] && { factor=${right%%\**}; other=${right#*\*}; }
        b=$(value "$report" "$measure" "$other")
        [ -n "$b" ] && b=$(awk -v f="$factor" -v b="$b" 'BEGIN { printf "%.12g", f * b }')
    fi
    if [ -z "$a" ] || [ -z "$b" ]; then
        echo "unsupported claim: $where: reports/$report has no $measure for ${a:+$other}${a:-$left}"
        failed=1; continue
    fi
    if holds "$a" "$relation" "$b"; then
        echo "ok   claim: $where ($measure: $left $a $relation $right${other:+ $b})"
    else
        echo "unsupported claim: $where: reports/$report says $measure of $left is $a, not $relation $right ($b)"
        failed=1
    fi
done < "$claims"
[ $checked -gt 0 ] || { echo "claim: no claims in $claims"; exit 1; }
exit $failed
