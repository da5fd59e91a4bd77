#!/usr/bin/env bash
# The timing report's measurements: every stage's kernel beside cuBLAS on a
# GPU, or, without one, what the simulator counts.  Writes TSV files that
# plot.sh turns into figures and report.md.
#
#   common/report/report.sh gpu OUT [SUBMISSION]   times (needs a GPU; ncu adds counters)
#   common/report/report.sh sim OUT [SUBMISSION]   the simulator's counts (no times)
#
# Stages come from solutions/ (and from SUBMISSION, as "<stage>-yours"),
# and the variants the lessons compare them with from common/report/variants.tsv
# (as "<stage>+<name>").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
submission=${3:-}
cd "$root"
started=$(date +%s)
progress() { printf '[report %4ds] %s\n' $(( $(date +%s) - started )) "$*" >&2; }
. "$root/common/c_numbers.sh"   # C's numbers, whatever the locale
. "$root/common/job_pool.sh"    # wait_for_slot
. "$root/common/report/report_awk.sh"   # report_awk: the report tables read one way
cores=$(nproc 2>/dev/null || echo 2)

# label, lab file, compiler flags (- for none): the solutions, their
# variants, then the student's files if asked for.
labs() {
    local label stage how what src
    # (The student handout has no solutions/: then only SUBMISSION's files.)
    for f in solutions/[0-9]*/matmul.cu; do [ -f "$f" ] && echo "$(basename "$(dirname "$f")") $root/$f -"; done
    while IFS=$'\t' read -r label stage how what; do
        case "$label" in ''|'#'*) continue ;; esac
        src="$root/solutions/$stage/matmul.cu"
        [ -f "$src" ] || continue
        case "$how" in
            -D*) echo "$label $src $how" ;;
            *.patch)
                # A variant file: the solution with the patch applied, exactly.
                mkdir -p "$root/build/report/variants/$label"
                patch --quiet --fuzz=0 -r - -o "$root/build/report/variants/$label/matmul.cu" "$src" \
                    < "$root/common/report/variants/$how" > /dev/null ||
                    { progress "$label: common/report/variants/$how no longer applies to solutions/$stage"; exit 1; }
                echo "$label $root/build/report/variants/$label/matmul.cu -" ;;
            *) progress "$label: \"$how\" in common/report/variants.tsv is neither -D flags nor a .patch"; exit 1 ;;
        esac
    done < "$root/common/report/variants.tsv"
    if [ -n "$submission" ]; then
        for f in "$submission"/[0-9]*/matmul.cu; do
            [ -f "$f" ] && echo "$(basename "$(dirname "$f")")-yours $(cd "$(dirname "$f")" && pwd)/matmul.cu -"
        done
    fi
}

# What the report was made with (grader/provenance.sh), into machine.tsv.
# One of the two places common/ reads the grader's files (the other: the
# hazards' mutants below): a report says what it was made with in the
# grader's words, so that a report and a grade made alike say it alike.
made_with() {
    "$root/grader/provenance.sh" "$1" |
        awk -F'\t' '$1 == "compiler" || $1 == "check compiler" || $1 == "kit" { print "made_with_" $1 "\t" $2 }' \
        >> "$out/machine.tsv"
}

build() {  # build LABEL SRC TARGET BACKEND DEFINES
    local name=${1%-yours} defines=${5:--}
    [ "$defines" = - ] && defines=
    make --no-print-directory -f common/build.mk BACKEND="$4" LAB_SRC="$2" LAB_NAME="${name%%+*}" \
        LAB_DEFINES="$defines" OUT="$root/build/report/$4/$1" "$3" > "$out/build-$1.log" 2>&1
}

# Registers, shared memory, spills and occupancy of every kernel, from the
# compiler (ptxas -v, sm_90 unless ARCH says otherwise) and the device's
# limits (make query; the simulator presents the report GPU's): resources.tsv.
resources() {
    local backend=$1 label src defines name threads
    if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        progress "resources: no nvcc here, so no registers and occupancy table (the CUDA toolkit's compiler counts them)"
        return 0
    fi
    make --no-print-directory -f common/build.mk BACKEND="$backend" LAB_SRC=/dev/null LAB_NAME=query \
        "$root/build/$backend/common/device_query" > "$out/build-device-query.log" 2>&1 || return 0
    "$root/build/$backend/common/device_query" --tsv > "$out/device_limits.tsv"
    printf 'stage\tkernel\tthreads\tregisters\tshared_bytes\tspill_store_bytes\tblocks_per_sm\tlimited_by\toccupancy_pct\n' \
        > "$out/resources.tsv"
    # A kernel per core at once (nvcc is single-threaded), rows in labs' order.
    local parts="$out/resources.parts" i=0 list
    list=$(labs)
    rm -rf "$parts" && mkdir -p "$parts"
    while read -r label src defines; do
        [ "$defines" = - ] && defines=
        name=${label%-yours}
        i=$((i + 1))
        progress "$label: registers and occupancy"
        wait_for_slot "$cores"
        { LAB_DEFINES="$defines" OCCUPANCY_TSV=1 common/occupancy/occupancy.sh "$src" "${name%%+*}" "" \
            "$out/device_limits.tsv" 2> /dev/null | awk -v l="$label" '{ print l "\t" $0 }' > "$parts/$i" || true; } &
    done <<< "$list"
    wait
    for ((j = 1; j <= i; j++)); do cat "$parts/$j" >> "$out/resources.tsv"; done
    rm -rf "$parts"
    # On a GPU, the runtime's own blocks per SM for the same kernels and
    # block sizes (the occupancy API), for the report to set beside them.
    [ "$backend" = gpu ] || return 0
    printf 'stage\tkernel\tregisters\tshared_bytes\tblocks_per_sm\n' > "$out/occupancy_api.tsv"
    labs | while read -r label src defines; do
        [ "$defines" = - ] && defines=
        threads=$(report_awk 'FNR > 1 && $1 == l { print column("threads"); exit }' l="$label" "$out/resources.tsv")
        [ -n "$threads" ] || continue
        LAB_DEFINES="$defines" common/occupancy/occupancy_api.sh "$src" "$threads" "$root/build/report/occupancy_api/$label" \
            2> /dev/null | awk -v l="$label" '{ print l "\t" $0 }' >> "$out/occupancy_api.tsv" || true
    done
}

# The hot loop's memory instructions of every kernel, from its machine code
# (make sass: nvcc for sm_90 unless ARCH says otherwise, then nvdisasm): sass.tsv.
machine_code() {
    local label src defines name
    if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        progress "machine code: no nvcc here, so no table of the hot loops' instructions"
        return 0
    fi
    printf 'stage\tkernel\tfirst_line\tlast_line\tinstructions\tffma\tlds\tlds_bytes\tlds_by_width\tsts\tsts_by_width\tldg\tldg_by_width\tstg\tldgsts\tbarriers\thmma\tld\n' \
        > "$out/sass.tsv"
    # A kernel per core at once, rows in labs' order; the table is dropped,
    # with the first failure's reason, if any kernel's machine code failed.
    local parts="$out/sass.parts" i=0 labels=() list
    list=$(labs)
    rm -rf "$parts" && mkdir -p "$parts"
    while read -r label src defines; do
        [ "$defines" = - ] && defines=
        name=${label%-yours}
        i=$((i + 1)) && labels[i]=$label
        progress "$label: machine code"
        wait_for_slot "$cores"
        { if LAB_DEFINES="$defines" SASS_TSV=1 common/sass/sass.sh "$src" "${name%%+*}" "$root/build/report/sass/$label" \
                > "$parts/$i.sass" 2> "$out/sass-$label.log"; then
              awk -v l="$label" '{ print l "\t" $0 }' "$parts/$i.sass" > "$parts/$i"
              rm -f "$out/sass-$label.log"
          fi; } &
    done <<< "$list"
    wait
    for ((j = 1; j <= i; j++)); do
        if [ ! -f "$parts/$j" ]; then
            progress "machine code: $(head -n 2 "$out/sass-${labels[j]}.log" | tr '\n' ' ')"
            rm -f "$out/sass.tsv"
            break
        fi
        cat "$parts/$j" >> "$out/sass.tsv"
    done
    rm -rf "$parts"
}

case "$mode" in
gpu)
    sizes=${SIZES:-"128 256 512 1000 1024 2048 4096"}
    {
        echo "gpu	$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
        echo "driver	$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
        echo "cuda	$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
        echo "compute_capability	$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1)"
        echo "max_sm_clock_mhz	$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -n 1)"
        echo "sm_clock_mhz	$(nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits | head -n 1)"
        echo "max_mem_clock_mhz	$(nvidia-smi --query-gpu=clocks.max.mem --format=csv,noheader,nounits | head -n 1)"
        echo "date	$(date -u +%Y-%m-%dT%H:%MZ)"
    } > "$out/machine.tsv"
    printf 'stage\tn\tmedian_ms\tmin_ms\tmax_ms\tcv\treps\tgflops\tcheck\n' > "$out/timings.tsv"
    # Every program first, one build a core: nvcc takes longer than the
    # timing, and one build after another would be most of the run. The
    # first label's build, alone, makes the objects the others share.
    labs | {
        first=1
        while read -r label src defines; do
            [ -n "$first" ] || wait_for_slot "$cores" || true
            progress "$label: building"
            { build "$label" "$src" "$root/build/report/gpu/$label/time_lab" gpu "$defines" &&
                build "$label" "$src" "$root/build/report/gpu/$label/run_lab" gpu "$defines"; } &
            [ -z "$first" ] || { wait; first=; }
        done
        wait
    }
    labs | while read -r label src defines; do
        [ -x "$root/build/report/gpu/$label/time_lab" ] ||
            { progress "$label: does not build (build-$label.log)"; continue; }
        progress "$label: timing n = $sizes"
        "$root/build/report/gpu/$label/time_lab" "$label" $sizes >> "$out/timings.tsv" ||
            progress "$label: time_lab failed (see its lines in timings.tsv)"
    done
    progress "cuBLAS: building and timing"
    make --no-print-directory -f common/build.mk BACKEND=gpu LAB_SRC="$root/solutions/01-naive/matmul.cu" \
        "$root/build/gpu/common/time_cublas" > "$out/build-cublas.log" 2>&1
    "$root/build/gpu/common/time_cublas" $sizes >> "$out/timings.tsv"
    if command -v ncu >/dev/null && [ -z "${NO_NCU:-}" ]; then
        printf 'stage\tn\tcounters\n' > "$out/counters.tsv"
        labs | while read -r label src defines; do
            n=1024
            case "$label" in 02-*|03-*) n=32 ;; esac
            progress "$label: ncu counters at n=$n"
            build "$label" "$src" "$root/build/report/gpu/$label/run_lab" gpu "$defines"
            PROFILE_DRAM=1 common/gpu/profile.sh "$root/build/report/gpu/$label/run_lab" "$n" "$out/ncu-$label.line" \
                > "$out/ncu-$label.txt" 2>&1 || true
            [ -f "$out/ncu-$label.line" ] && printf '%s\t%d\t%s\n' "$label" "$n" "$(cat "$out/ncu-$label.line")" >> "$out/counters.tsv"
            rm -f "$out/ncu-$label.line"
        done
        echo "bank_conflicts	shared wavefronts beyond the ideal for their addresses (ncu SourceCounters)" >> "$out/machine.tsv"
        # What bounds the last two stages and cuBLAS at the largest size:
        # ncu's throughput, issue, warp-state and occupancy sections, which
        # lesson 08 reads against each other, and the warp-state section's
        # reasons one by one (cycles a warp spends stalled on each, per
        # instruction issued), which the section alone does not print.
        big=${sizes##* }
        for label in 07-register-tiling 08-warp-tiling cublas; do
            if [ $label = cublas ]; then prog=("$root/build/gpu/common/time_cublas" "$big")
            else prog=("$root/build/report/gpu/$label/run_lab" "$big" 1 1); fi
            [ -x "${prog[0]}" ] || continue
            progress "$label: what bounds it at n=$big (ncu)"
            ncu --clock-control none --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
                --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
                --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
                "${prog[@]}" > "$out/ncu-limits-${label%%-*}-$big.txt" 2>&1 || true
        done
        # Each level's traffic at the largest size, for the roofline: one
        # launch of each stage (02 and 03 hold n <= 32 in one block, and
        # have no point there) and of cuBLAS, four counters, no replay of
        # the machine code (common/gpu/level_traffic.sh).
        printf 'stage\tn\tdram_bytes\tl2_bytes\tshared_wavefronts\n' > "$out/roofline.tsv"
        labs | while read -r label src defines; do
            case "$label" in 02-*|03-*|*+*) continue ;; esac
            [ -x "$root/build/report/gpu/$label/run_lab" ] || continue
            progress "$label: each level's traffic at n=$big (ncu)"
            common/gpu/level_traffic.sh "$label" "$big" "$root/build/report/gpu/$label/run_lab" "$big" 1 1 \
                >> "$out/roofline.tsv" 2>> "$out/ncu-levels.log" || true
        done
        progress "cuBLAS: each level's traffic at n=$big (ncu)"
        common/gpu/level_traffic.sh cublas-fp32 "$big" "$root/build/gpu/common/time_cublas" "$big" \
            >> "$out/roofline.tsv" 2>> "$out/ncu-levels.log" || true
    fi
    # Measured bandwidths for the roofline: DRAM (device-to-device copies),
    # the L2 and shared memory (common/report/bandwidth.cu).
    progress "memory bandwidth"
    make --no-print-directory -f common/build.mk BACKEND=gpu LAB_SRC="$root/solutions/01-naive/matmul.cu" \
        "$root/build/gpu/common/bandwidth" > "$out/build-bandwidth.log" 2>&1
    "$root/build/gpu/common/bandwidth" >> "$out/machine.tsv"
    resources gpu
    machine_code
    made_with gpu
    ;;
sim)
    sizes=${SIZES:-"64 128 256"}
    printf 'stage\tn\tcounters\n' > "$out/counters.tsv"
    labs | while read -r label src defines; do
        progress "$label: check build"
        build "$label" "$src" "$root/build/report/sim/$label/check/run_lab" sim "$defines"
        for n in $sizes; do
            case "$label" in 02-*|03-*) [ "$n" -le 32 ] || continue ;; esac
            progress "$label: counting at n=$n"
            rm -f "$out/tmp.counts"
            # The picture of its worst shared access, at the smallest size.
            picture=
            [ "$n" = "${sizes%% *}" ] && picture="$out/access-$label.svg"
            SIM_CHECK_OUT="$out/tmp.counts" SIM_CHECK_PICTURE="$picture" \
                "$root/build/report/sim/$label/check/run_lab" "$n" 1 1 > /dev/null 2>&1 || true
            line=$(grep -m1 '^launch=' "$out/tmp.counts" 2>/dev/null || true)
            [ -n "$line" ] && printf '%s\t%d\t%s\n' "$label" "$n" "$line" >> "$out/counters.tsv"
        done
        case "$label" in 02-*) n=2 ;; 03-*) n=32 ;; *) continue ;; esac
        rm -f "$out/tmp.counts"
        SIM_CHECK_OUT="$out/tmp.counts" SIM_CHECK_PICTURE="$out/access-$label.svg" \
            "$root/build/report/sim/$label/check/run_lab" "$n" 1 1 > /dev/null 2>&1 || true
        line=$(grep -m1 '^launch=' "$out/tmp.counts" 2>/dev/null || true)
        [ -n "$line" ] && printf '%s\t%d\t%s\n' "$label" "$n" "$line" >> "$out/counters.tsv"
    done
    rm -f "$out/tmp.counts"
    # The hazard pictures the lessons show: a solution with a barrier left
    # out (common/report/hazards.tsv), one simulator thread so the example
    # drawn is the same every run.  The kernels are the grader's mutants, so
    # what a lesson draws is what the grader must fail.  (The student
    # handout has no mutants.)
    while IFS=$'\t' read -r label stage patch n; do
        case "$label" in ''|'#'*) continue ;; esac
        [ -f "$root/grader/mutants/$patch" ] && [ -f "$root/solutions/$stage/matmul.cu" ] || continue
        mkdir -p "$root/build/report/hazards/$label"
        patch --quiet --fuzz=0 -r - -o "$root/build/report/hazards/$label/matmul.cu" "$root/solutions/$stage/matmul.cu" \
            < "$root/grader/mutants/$patch" > /dev/null ||
            { progress "$label: grader/mutants/$patch no longer applies to solutions/$stage"; exit 1; }
        progress "$label: the hazard at n=$n"
        build "$label" "$root/build/report/hazards/$label/matmul.cu" "$root/build/report/sim/$label/check/run_lab" sim -
        rm -f "$out/hazard-$label.svg"
        SIM_THREADS=1 SIM_CHECK_HAZARD_PICTURE="$out/hazard-$label.svg" \
            "$root/build/report/sim/$label/check/run_lab" "$n" 1 1 > /dev/null 2>&1 || true
        [ -f "$out/hazard-$label.svg" ] || { progress "$label: no hazard found at n=$n"; exit 1; }
    done < "$root/common/report/hazards.tsv"
    echo "machine	CPU simulator ($(nproc) cores); counts only, no GPU times" > "$out/machine.tsv"
    resources sim
    machine_code
    made_with sim
    ;;
*)
    echo "usage: $0 gpu|sim OUT [SUBMISSION]" >&2
    exit 2
    ;;
esac
progress "done: $out"
