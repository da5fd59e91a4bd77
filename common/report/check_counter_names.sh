#!/usr/bin/env bash
# Every check-mode counter the report, the slides and the lessons look up
# by name must be one common/check_counters.h declares: a renamed or
# dropped counter then fails here, not as a silently empty cell.
#
#   common/report/check_counter_names.sh     (run by make test-report)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2

declared=$(sed -n 's/^ *X(\([a-z_]*\),.*/\1/p' common/check_counters.h)
[ -n "$declared" ] || { echo "check_counter_names: no counters found in common/check_counters.h"; exit 2; }
# Not check-mode counters, and said so: ncu's DRAM bytes (common/gpu/profile.sh
# adds them to a GPU's counters.tsv) and the slides' ratios (slides/tools/lib.sh).
others="dram_read_bytes dram_write_bytes loads_per_element shared_words_per_fma sectors_per_request"

# Where a counter is looked up by name: v["..."] in the awk of the report
# and slide scripts, get(sim|gpu, "...") in the agreement table,
# counter STAGE NAME in plot.sh, {{count N NAME}} in the slides and lessons.
used=$(grep -ohE 'v\["[a-z_]+"\]|get\((sim|gpu), "[a-z_]+"\)|counter "\$s" [a-z_]+|\{\{count [0-9]+ [a-z_]+\}\}' \
        common/report/*.sh common/sim/agreement/*.sh slides/tools/*.sh slides/*.md labs/*/README.md 2>/dev/null |
    sed -E 's/.*"([a-z_]+)".*/\1/; s/.* ([a-z_]+)\}\}$/\1/; s/^counter "\$s" //' | sort -u)
[ -n "$used" ] || { echo "check_counter_names: found no counter looked up by name (has the lookup syntax changed?)"; exit 1; }

unknown=
for name in $used; do
    grep -qx -- "$name" <<< "$declared" || [[ " $others " == *" $name "* ]] || unknown+=" $name"
done
if [ -n "$unknown" ]; then
    echo "check_counter_names: looked up by name but not declared in common/check_counters.h:$unknown"
    grep -rnwE "$(echo $unknown | tr ' ' '|')" common/report common/sim/agreement slides/tools slides/*.md labs/*/README.md | head -n 5
    exit 1
fi
echo "check_counter_names: $(echo $used | wc -w) counter names looked up, every one declared"
