#!/usr/bin/env bash
# Puts measured numbers into the lessons: the block between
# <!-- report:NN-name:begin --> and <!-- report:NN-name:end --> in each
# labs/NN-name/README.md (and <!-- report:headline:... --> in README.md) is rewritten from the committed reports under
# reports/ (a GPU's timing report, the simulator's counts), so a lesson only
# ever quotes the kit's own measurements, and re-running a report updates it.
#
#   common/report/fill_lessons.sh            rewrite the lessons (make lessons)
#   common/report/fill_lessons.sh --check    exit 1 if a lesson is out of date
set -euo pipefail
. "$(dirname "$0")/../c_numbers.sh"   # C's numbers (1.5, not 1,5), whatever the locale
. "$(dirname "$0")/report_awk.sh"     # report_awk: the report tables read one way
. "$(dirname "$0")/precision.sh"      # cublas_reference: FP32 or TF32, by stage
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
check=${1:-}

# The variants of a stage the report also measures (common/report/variants.tsv):
# "label<TAB>what it shows" lines.
variants_of() {
    awk -F'\t' -v s="$1" '!/^#/ && $2 == s { print $1 "\t" $4 }' common/report/variants.tsv
}

# compared_with STAGE: the labels its lesson compares it with
# (common/report/compared_with.tsv), on one line.
compared_with() {
    awk -F'\t' -v s="$1" '!/^#/ && $1 == s { print $2 }' common/report/compared_with.tsv
}

# comparison_table DIR LABEL...: GFLOP/s of these kernels at every size of
# a GPU report, one row a kernel in the order given, and % of cuBLAS FP32
# at the largest size.
comparison_table() {
    local dir=$1
    shift
    report_awk '
        # A run that did not check out has no GFLOP/s: only "ok" runs are kept.
        FNR > 1 { ran[$1, $2] = 1; if (column("check") == "ok") gflops[$1, $2] = column("gflops")
            if (!($2 in seen)) { seen[$2] = 1; sizes[++ns] = $2 + 0 } }
        END {
            # sizes ascending
            for (i = 2; i <= ns; i++) for (j = i; j > 1 && sizes[j - 1] > sizes[j]; j--) { t = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = t }
            big = sizes[ns]
            print "GFLOP/s at each n, beside the kernels this lesson compares it with:"
            print ""
            head = "| kernel |"; rule = "| --- |"
            for (i = 1; i <= ns; i++) { head = head " " sizes[i] " |"; rule = rule " ---: |" }
            print head " % of cuBLAS FP32 at " big " |"
            print rule " ---: |"
            ref = ("cublas-fp32", big) in gflops ? gflops["cublas-fp32", big] : 0
            n = split(labels, l, " ")
            for (i = 1; i <= n; i++) {
                if (!((l[i], big) in ran)) continue
                line = "| " l[i] " |"
                for (j = 1; j <= ns; j++)
                    line = line " " ((l[i], sizes[j]) in gflops ? sprintf("%.0f", gflops[l[i], sizes[j]]) : "—") " |"
                line = line " " ((l[i], big) in gflops && ref > 0 ? sprintf("%.1f %%", 100 * gflops[l[i], big] / ref) : "—") " |"
                print line
            }
        }' labels="$*" "$dir/timings.tsv"
}

# timing_table DIR LABEL: a GPU report's rows for one kernel, beside the
# cuBLAS of its precision.
timing_table() {
    echo "| n | time (ms) | GFLOP/s | % of $(cublas_reference_name "$2") |"
    echo "| ---: | ---: | ---: | ---: |"
    report_awk '
        $1 == reference { ref[$2] = column("gflops") }
        $1 == s { n[++k] = $2; ok[k] = column("check") == "ok"; ms[k] = column("median_ms"); gflops[k] = column("gflops") }
        END { for (i = 1; i <= k; i++)
            if (!ok[i]) printf "| %d | — | — | — |\n", n[i]
            else printf "| %d | %.3f | %.0f | %s |\n", n[i], ms[i], gflops[i], (n[i] in ref) ? sprintf("%.1f %%", 100 * gflops[i] / ref[n[i]]) : "—" }' \
        s="$2" reference="$(cublas_reference "$2")" "$1/timings.tsv"
}

# roofline_table DIR LABEL...: these kernels against each memory level at
# the report's largest size (plot.sh's roofline-levels.tsv), and cuBLAS.
roofline_table() {
    local dir=$1
    shift
    echo "Against each memory level at n = $(awk -F'\t' 'NR == 2 { print $2 }' "$dir/roofline-levels.tsv"): FLOP per byte each level moved, and the lowest of the levels' roofs (measured bandwidth times intensity, capped by the FP32 peak, except a tensor-core stage's, which that peak does not bound; [the report](../../$dir/report.md#which-level-bounds-each-stage) says how each is counted), then the roofline they make:"
    echo
    echo "| kernel | GFLOP/s | FLOP per DRAM byte | per L2 byte | per shared byte | lowest roof | reached |"
    echo "| --- | ---: | ---: | ---: | ---: | --- | ---: |"
    report_awk '        FNR > 1 && index(labels, " " $1 " ") {
        printf "| %s | %.0f | %s | %s | %s | %s, %.0f GFLOP/s | %.0f %% |\n", $1, column("gflops"), shown_intensity(column("flop_per_dram_byte")),
            shown_intensity(column("flop_per_l2_byte")), shown_intensity(column("flop_per_shared_byte")), column("lowest_roof"),
            column("roof_gflops"), column("reached_pct") }' labels=" $* cublas-fp32 " "$dir/roofline-levels.tsv"
    echo
    echo "![Roofline by memory level, $(awk -F'\t' '$1 == "gpu" { print $2 }' "$dir/machine.tsv"): each kernel a line at its GFLOP/s, a point against each level](../../$dir/roofline.svg)"
}

# count_table DIR LABEL: the simulator's counts for one kernel.
count_table() {
    echo "| n | floats loaded per element of C | global load instructions per thread (max) | sectors per load request | shared loads | shared words read per multiply-add | bank conflicts (ld/st) | stretches overlapping copy and read |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    report_awk '$1 == s {
        read_counts($3, v)
        printf "| %d | %.1f | %d | %.2f | %d | %.3g | %d/%d | %d of %d |\n", $2, count(v, $2, "loads_per_element"),
            count(v, $2, "max_loads_per_thread"), count(v, $2, "sectors_per_request"), count(v, $2, "shared_loads"),
            count(v, $2, "shared_words_per_fma"), count(v, $2, "bank_conflicts_ld"), count(v, $2, "bank_conflicts_st"),
            count(v, $2, "overlapped_phases"), count(v, $2, "shared_phases") }' s="$2" "$1/counters.tsv"
}

# resources_table DIR LABEL...: registers, shared memory and occupancy of
# each kernel of these labels (report.sh's resources.tsv).
resources_table() {
    local dir=$1
    shift
    local limits
    limits=$(awk -F'\t' '$1 == "name" { n = $2 } $1 == "compute capability" { c = $2 }
        END { if (n == "CPU simulator") print "compute capability " c " as the CPU simulator presents them (the report GPU'"'"'s)"; else print n " (compute capability " c ")" }' "$dir/device_limits.tsv")
    echo "What the compiler made of it (\`ptxas -v\`, sm_90) and what that allows per SM with the limits of $limits (\`make query\`; \`make -C labs/NN occupancy\` shows the working):"
    report_awk 'FNR > 1 && index(labels, " " $1 " ") && column("shared_bytes") ~ /\+dynamic/ { found = 1 } END { exit !found }' \
        labels=" $* " "$dir/resources.tsv" &&
        echo "\"+dynamic\": and the dynamic shared memory the launch asks for, which no compiler sees and this table does not count (\`make occupancy DYNAMIC_SHARED=bytes\` counts it)."
    echo
    echo "| kernel | registers per thread | shared bytes per block | spill stores (bytes) | blocks per SM | limited by | occupancy |"
    echo "| --- | ---: | ---: | ---: | ---: | --- | ---: |"
    report_awk 'FNR > 1 && index(labels, " " $1 " ") {
        k = $2; sub(/^void /, "", k); sub(/\(.*$/, "", k)
        printf "| %s `%s` | %d | %s | %d | %d | %s | %.1f %% |\n", $1, k, column("registers"), column("shared_bytes"),
            column("spill_store_bytes"), column("blocks_per_sm"), column("limited_by"), column("occupancy_pct") }' labels=" $* " "$dir/resources.tsv"
}

# machine_code_table DIR LABEL...: each kernel's hot loop in machine code
# (report.sh's sass.tsv, make sass).
machine_code_table() {
    local dir=$1 tensor
    shift
    echo "Its hot loop in machine code, per trip (\`make -C labs/NN sass\`, sm_90; \"16x8\" is 8 instructions of 16 bytes per thread):"
    echo
    # Where a kernel of the table runs on tensor cores, two more columns:
    # its HMMA instructions, and the generic loads (LD) its fragments came
    # through.
    tensor=$(report_awk 'FNR > 1 && index(labels, " " $1 " ") && ("hmma" in column_of) && column("hmma") > 0 { print 1; exit }' \
        labels=" $* " "$dir/sass.tsv")
    if [ -n "$tensor" ]; then
        echo "| kernel | FFMA | HMMA | shared loads (widths) | generic loads (LD) | shared loads per FFMA | global loads (widths) | cp.async copies | all instructions |"
        echo "| --- | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |"
    else
        echo "| kernel | FFMA | shared loads (widths) | shared loads per FFMA | global loads (widths) | cp.async copies | all instructions |"
        echo "| --- | ---: | --- | ---: | --- | ---: | ---: |"
    fi
    report_awk 'function w(s) { return s == "-" ? "" : " (" s ")" }
        FNR > 1 && index(labels, " " $1 " ") {
        printf "| %s `%s` | %d", $1, $2, column("ffma")
        if (tensor) printf " | %d", column("hmma")
        printf " | %d%s", column("lds"), w(column("lds_by_width"))
        if (tensor) printf " | %d", column("ld")
        printf " | %s | %d%s | %d | %d |\n", (column("ffma") > 0 ? sprintf("%.2f", column("lds") / column("ffma")) : "—"),
            column("ldg"), w(column("ldg_by_width")), column("ldgsts"), column("instructions") }' \
        labels=" $* " tensor="$tensor" "$dir/sass.tsv"
}

# The block for one stage, from every committed report: the stage's
# solution, then each variant of it the report measured.
block() {
    local stage=$1 found=0 label what
    for dir in reports/*/; do
        dir=${dir%/}
        if [ -f "$dir/timings.tsv" ] && grep -q "^$stage	" "$dir/timings.tsv"; then
            found=1
            gpu=$(awk -F'\t' '$1 == "gpu" { print $2 }' "$dir/machine.tsv")
            echo "Measured on $gpu by the kit's timing report ([$dir/report.md](../../$dir/report.md)):"
            echo
            timing_table "$dir" "$stage"
            echo
            if [ -f "$dir/speed-$stage.svg" ]; then
                echo "![GFLOP/s against n on $gpu: $stage beside the stage before it and cuBLAS FP32$(tf32_label "$stage" && echo " and TF32")](../../$dir/speed-$stage.svg)"
                echo
            fi
            while IFS=$'\t' read -r label what; do
                grep -q "^$label	" "$dir/timings.tsv" || continue
                echo "\`$label\`, $what:"
                echo
                timing_table "$dir" "$label"
                echo
            done < <(variants_of "$stage")
            if [ -n "$(compared_with "$stage")" ]; then
                comparison_table "$dir" $(compared_with "$stage") "$stage" $(variants_of "$stage" | cut -f1)
                echo
            fi
            if [ -f "$dir/roofline-levels.tsv" ] && grep -q "^$stage	" "$dir/roofline-levels.tsv"; then
                roofline_table "$dir" $(compared_with "$stage") "$stage"
                echo
            fi
        fi
        if [ -f "$dir/counters.tsv" ] && [ ! -f "$dir/timings.tsv" ] && grep -q "^$stage	" "$dir/counters.tsv"; then
            found=1
            echo "Counted by the kit's CPU simulator in check mode ([$dir/report.md](../../$dir/report.md)):"
            echo
            count_table "$dir" "$stage"
            echo
            while IFS=$'\t' read -r label what; do
                grep -q "^$label	" "$dir/counters.tsv" || continue
                echo "\`$label\`, $what:"
                echo
                count_table "$dir" "$label"
                echo
            done < <(variants_of "$stage")
            if [ -f "$dir/resources.tsv" ] && grep -q "^$stage	" "$dir/resources.tsv"; then
                resources_table "$dir" $(compared_with "$stage") "$stage" $(variants_of "$stage" | cut -f1)
                echo
            fi
            if [ -f "$dir/sass.tsv" ] && grep -q "^$stage	" "$dir/sass.tsv"; then
                machine_code_table "$dir" $(compared_with "$stage") "$stage" $(variants_of "$stage" | cut -f1)
                echo
            fi
        fi
    done
    if ! ls reports/*/timings.tsv >/dev/null 2>&1; then
        echo "_GPU times appear here once a GPU's timing report is committed under reports/ (\`make report\` on a GPU, then \`make lessons\`)._"
        found=1
    fi
    [ $found = 1 ] || echo "_Measured results appear here once a report is committed under reports/._"
}

# The top-level README's headline: every stage at the largest size of each
# GPU report, beside cuBLAS.
headline() {
    local found=0
    for dir in reports/*/; do
        dir=${dir%/}
        [ -f "$dir/timings.tsv" ] || continue
        found=1
        gpu=$(awk -F'\t' '$1 == "gpu" { print $2 }' "$dir/machine.tsv")
        big=$(awk -F'\t' 'NR > 1 && $2 + 0 > m { m = $2 + 0 } END { print m }' "$dir/timings.tsv")
        echo "Every stage's solution at n = $big on $gpu ([$dir/report.md]($dir/report.md), \`make report\`):"
        echo
        echo "| stage | GFLOP/s | % of cuBLAS FP32 |"
        echo "| --- | ---: | ---: |"
        report_awk '
            FNR > 1 && $2 == n && $1 == "cublas-fp32" { ref = column("gflops") }
            FNR > 1 && $2 == n && !index($1, "+") { label[++k] = $1; ok[k] = column("check") == "ok"; gflops[k] = column("gflops") }
            END { for (i = 1; i <= k; i++)
                if (!ok[i]) printf "| %s | — | — |\n", label[i]
                else printf "| %s | %.0f | %.1f %% |\n", label[i], gflops[i], 100 * gflops[i] / ref }' n="$big" "$dir/timings.tsv"
        echo
    done
    [ $found = 1 ] || echo "_A GPU timing report committed under reports/ fills this table (\`make report\` on a GPU, then \`make lessons\`)._"
}

stale=0
for readme in README.md labs/[0-9]*/README.md; do
    stage=$(basename "$(dirname "$readme")")
    [ "$readme" = README.md ] && stage=headline
    grep -q "<!-- report:$stage:begin -->" "$readme" || continue
    new=$(mktemp)
    content=$(mktemp)
    if [ "$stage" = headline ]; then headline > "$content"; else block "$stage" > "$content"; fi
    awk -v b="<!-- report:$stage:begin -->" -v e="<!-- report:$stage:end -->" -v f="$content" '
        $0 == b { print; while ((getline line < f) > 0) print line; skip = 1; next }
        $0 == e { skip = 0 }
        !skip { print }' "$readme" > "$new"
    if ! cmp -s "$new" "$readme"; then
        if [ "$check" = --check ]; then
            echo "fill_lessons: $readme is out of date with reports/ (run make lessons)"
            stale=1
        else
            cp "$new" "$readme"
            echo "fill_lessons: updated $readme"
        fi
    fi
    rm -f "$new" "$content"
done
exit $stale
