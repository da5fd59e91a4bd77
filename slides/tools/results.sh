#!/usr/bin/env bash
# The measured-results frames of one deck, as pandoc markdown on stdout:
# what the committed reports under REPORTS say about STAGE.  Nothing here
# is typed: tables and figures are read from the reports when the deck is
# built, and every GPU number sits beside the GPU's name from machine.tsv.
#
#   ROOT=... REPORTS=... slides/tools/results.sh STAGE FIGDIR
#
#   - the simulator's counts for the stage (each counters.tsv without timings),
#     and global loads per element of C for every stage, this one in colour;
#   - per GPU report (timings.tsv): the stage's times and GFLOP/s beside
#     cuBLAS, and every stage's GFLOP/s at the largest size;
#   - with no GPU report, a frame that says so.
set -euo pipefail
stage=$1 figdir=$2
# shellcheck source=slides/tools/lib.sh
. "$ROOT/slides/tools/lib.sh"
rel() { echo "${1#"$ROOT"/}"; }

for dir in $(sim_reports); do
    grep -q "^$stage	" "$dir/counters.tsv" || continue
    echo "## What the simulator counts"
    echo
    echo "| n | floats loaded per element of C | global load instructions per thread (max) | sectors per load request | shared loads | shared words per multiply-add | bank conflicts (ld/st) | hazards |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    report_awk '$1 == s {
        read_counts($3, v)
        w = count(v, $2, "shared_words_per_fma")
        printf "| %d | %.1f | %d | %.2f | %d | %s | %d/%d | %d |\n", $2, count(v, $2, "loads_per_element"),
            count(v, $2, "max_loads_per_thread"), count(v, $2, "sectors_per_request"), count(v, $2, "shared_loads"),
            w == "" ? "—" : sprintf("%.3g", w), count(v, $2, "bank_conflicts_ld"), count(v, $2, "bank_conflicts_st"),
            count(v, $2, "hazards") }' s="$stage" "$dir/counters.tsv"
    echo
    echo "\\footnotesize From \`$(rel "$dir")/counters.tsv\`: the kit's simulator in check mode, one launch per size"
    echo "($(machine "$dir" machine))."
    echo
    # Floats loaded from global memory per element of C against n, one line per stage.
    data="$figdir/loads-$(basename "$dir")"
    mkdir -p "$data"
    stages=$(awk -F'\t' 'NR > 1 && !seen[$1]++ { printf "%s ", $1 }' "$dir/counters.tsv")
    for s in $stages; do
        report_awk '$1 == s && read_counts($3, v) && count(v, $2, "loads_per_element") != "" {
            print $2, count(v, $2, "loads_per_element") }' s="$s" "$dir/counters.tsv" > "$data/$s.dat"
    done
    figure loads "$figdir/loads-$stage-$(basename "$dir").pdf" "datadir='$data'; stages='$stages'; stage='$stage'"
    echo "## Floats loaded per element of C, every stage"
    echo
    echo "![]($figdir/loads-$stage-$(basename "$dir").pdf)"
    echo
    echo "\\footnotesize From \`$(rel "$dir")/counters.tsv\`: the simulator's count of bytes loaded from global memory, over 4 n² (floats per element of C), this stage in colour."
    echo
done

gpus=$(gpu_reports)
for dir in $gpus; do
    grep -q "^$stage	" "$dir/timings.tsv" || continue
    gpu=$(gpu_name "$dir")
    echo "## Measured on $gpu"
    echo
    echo "| n | median time (ms) | GFLOP/s | % of cuBLAS FP32 | spread (CV) |"
    echo "| ---: | ---: | ---: | ---: | ---: |"
    report_awk '
        $1 == "cublas-fp32" && column("check") == "ok" { ref[$2] = column("gflops") }
        $1 == s { n[++k] = $2; ok[k] = column("check") == "ok"; ms[k] = column("median_ms"); gflops[k] = column("gflops"); cv[k] = column("cv") }
        END { for (i = 1; i <= k; i++)
            if (!ok[i]) printf "| %d | — | — | — | — |\n", n[i]
            else printf "| %d | %.3f | %.0f | %s | %.1f %% |\n", n[i], ms[i], gflops[i],
                (n[i] in ref) ? sprintf("%.1f %%", 100 * gflops[i] / ref[n[i]]) : "—", 100 * cv[i] }' s="$stage" "$dir/timings.tsv"
    echo
    echo "\\footnotesize $gpu (CUDA $(machine "$dir" cuda), driver $(machine "$dir" driver), $(machine "$dir" date)):"
    echo "\`$(rel "$dir")/timings.tsv\`, the median of repetitions timed with CUDA events, L2 flushed before each."
    echo "— : the stage cannot run that size."
    echo
    # Every stage at the largest size timed, this one in colour.
    big=$(awk -F'\t' 'NR > 1 && $2 > m { m = $2 } END { print m }' "$dir/timings.tsv")
    bars="$figdir/bars-$(basename "$dir").dat"
    report_awk 'FNR > 1 && $2 == n && column("check") == "ok" { print $1, column("gflops"), ($1 == s) }' n="$big" s="$stage" "$dir/timings.tsv" > "$bars"
    figure gflops "$figdir/gflops-$stage-$(basename "$dir").pdf" "data='$bars'; gpu='$gpu'; n=$big"
    echo "## Every stage on $gpu"
    echo
    echo "![]($figdir/gflops-$stage-$(basename "$dir").pdf)"
    echo
    echo "\\footnotesize From \`$(rel "$dir")/timings.tsv\`: GFLOP/s at n = $big on $gpu, this stage in colour;"
    echo "a stage that cannot run this size has no bar."
    echo
    # Which memory level bounds it: the report's roofline by level, this
    # stage in colour, and its row.
    levels="$dir/roofline-levels.tsv"
    if [ -f "$levels" ] && grep -q "^$stage	" "$levels"; then
        pts="$figdir/roofline-$(basename "$dir").dat"
        report_awk 'FNR > 1 { print $1, column("gflops"), column("flop_per_dram_byte"), column("flop_per_l2_byte"),
            column("flop_per_shared_byte"), ($1 == s) }' s="$stage" "$levels" > "$pts"
        rn=$(awk -F'\t' 'NR == 2 { print $2 }' "$levels")
        peak=$(report_awk 'FNR > 1 { print column("fp32_peak_gflops"); exit }' "$levels")
        figure roofline "$figdir/roofline-$stage-$(basename "$dir").pdf" \
            "data='$pts'; gpu='$gpu'; n=$rn; bw=$(machine "$dir" bandwidth_gbs); l2bw=$(machine "$dir" l2_bandwidth_gbs); sbw=$(machine "$dir" shared_bandwidth_gbs); peak=$peak"
        echo "## Which memory level bounds it on $gpu"
        echo
        echo "![]($figdir/roofline-$stage-$(basename "$dir").pdf)"
        echo
        report_awk 'FNR > 1 && $1 == s { printf "\\footnotesize %s: lowest roof %s, %.0f GFLOP/s there, %.0f %% of it reached.", $1,
            column("lowest_roof"), column("roof_gflops"), column("reached_pct") }' s="$stage" "$levels"
        echo " From \`$(rel "$levels")\` (ncu's traffic at each level, \`common/report/bandwidth.cu\`'s bandwidths)."
        echo
    fi
done
if [ -z "$gpus" ]; then
    echo "## On a GPU"
    echo
    echo "No GPU timing report is committed under \`reports/\` yet, so this deck shows no GPU times."
    echo
    echo "- On a machine with an NVIDIA GPU: \`make report\` writes \`build/report/\`."
    echo "- Commit it as \`reports/<gpu-name>/\`, then \`make slides\`:"
    echo "  this frame becomes the stage's measured times and GFLOP/s beside cuBLAS, with the GPU named."
    echo
fi
