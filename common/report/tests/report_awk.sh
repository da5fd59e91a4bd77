#!/usr/bin/env bash
# report_awk reads the report's tables as every reader expects: a column
# by its header's name (whatever its place), a name the header lacks as an
# error that says so, the simulator's counts and the numbers derived from
# them, and nothing where a count a number needs is absent.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/common/report/report_awk.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # check WHAT EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   report_awk: $1"; else echo "FAIL report_awk: $1: expected '$2', got '$3'"; failed=1; fi
}

# The same table with its columns in two orders reads the same.
printf 'stage\tn\tgflops\tcheck\n04-tiled\t128\t812.5\tok\n' > "$tmp/a.tsv"
printf 'check\tgflops\tstage\tn\nok\t812.5\t04-tiled\t128\n' > "$tmp/b.tsv"
for f in a b; do
    check "column by name ($f.tsv)" "04-tiled 812.5" \
        "$(report_awk 'FNR > 1 && column("check") == "ok" { print column("stage"), column("gflops") }' "$tmp/$f.tsv")"
done
# Each file's own header: two files of different layouts in one run.
check "each file read by its own header" "812.5 812.5" \
    "$(report_awk 'FNR > 1 { printf "%s%s", sep, column("gflops"); sep = " " } END { print "" }' "$tmp/a.tsv" "$tmp/b.tsv")"
# A column the header lacks stops awk, naming it.
msg=$(report_awk 'FNR > 1 { print column("median_ms") }' "$tmp/a.tsv" 2>&1 >/dev/null)
status=$?
check "a missing column is an error" "2: $tmp/a.tsv: no column named median_ms" "$status: $msg"

# Counts: n = 4, 128 bytes loaded (2 floats per element of C), 16 requests
# of 64 sectors, 512 bytes read from shared memory (2 words per multiply-add).
printf 'stage\tn\tcounters\n' > "$tmp/c.tsv"
printf 'x\t4\tglobal_load_bytes=128 load_requests=16 load_sectors=64 shared_load_bytes=512 hazards=0\n' >> "$tmp/c.tsv"
printf 'y\t4\tload_requests=0 load_sectors=0 hazards=3\n' >> "$tmp/c.tsv"
derived() {  # derived LABEL: every derived number of its row, "-" for absent
    report_awk 'function shown(name,    x) { x = count(v, $2, name); return x == "" ? "-" : x }
        $1 == s { read_counts($3, v)
        print shown("loads_per_element"), shown("sectors_per_request"), shown("shared_words_per_fma"), shown("hazards") }' s="$1" "$tmp/c.tsv"
}
check "derived counts" "2 4 2 0" "$(derived x)"
check "absent counts derive nothing" "- - - 3" "$(derived y)"
exit $failed
