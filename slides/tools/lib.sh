# Shared by the slide tools (sourced, not run): where the kit's numbers are
# and how to read them.  Every number a slide shows passes through here or
# through code.sh/diff.sh, so none is ever typed into a deck.
#
# Expects ROOT (the kit) and REPORTS (the folder of committed reports,
# normally $ROOT/reports) to be set.

# shellcheck source=common/report/report_awk.sh
. "$ROOT/common/report/report_awk.sh"

# The simulator's reports: a counters.tsv with no timings.tsv beside it.
sim_reports() {
    local d
    for d in "$REPORTS"/*/; do
        [ -f "$d/counters.tsv" ] && [ ! -f "$d/timings.tsv" ] && echo "${d%/}"
    done
    return 0
}

# GPU timing reports: a timings.tsv (report.sh gpu writes machine.tsv beside it).
gpu_reports() {
    local d
    for d in "$REPORTS"/*/; do
        [ -f "$d/timings.tsv" ] && echo "${d%/}"
    done
    return 0
}

# gpu_name DIR: the GPU a timing report was made on, as nvidia-smi named it.
gpu_name() {
    local name
    name=$(machine "$1" gpu)
    echo "${name:-an unnamed GPU ($(basename "$1"))}"
}

# count DIR STAGE N KEY: one of the simulator's counts for a stage at size
# n, from counters.tsv: a counter or a number common/report/counts.awk
# derives (loads_per_element, shared_words_per_fma, sectors_per_request).
# Prints nothing if it is absent.
count() {
    report_awk '$1 == s && $2 == n {
            read_counts($3, v)
            x = count(v, n, k)
            if (x == "") exit
            if (k == "shared_words_per_fma") printf "%.3g\n", x
            else if (k == "sectors_per_request") printf "%.2f\n", x
            else print x
            exit
        }' s="$2" n="$3" k="$4" "$1/counters.tsv"
}

# sass DIR LABEL FIELD: one number of a kernel's hot loop in machine code,
# from a report's sass.tsv (make sass): ffma, shared_loads,
# shared_loads_per_ffma, wide_shared_loads (16 bytes), instructions, hmma,
# generic_loads (LD).
# LABEL:kernel picks one kernel of several.  Prints nothing if it is absent.
sass() {
    [ -f "$1/sass.tsv" ] || return 0
    report_awk 'FNR > 1 && $1 == l && (k == "" || $2 == k) {
            v = sass_field(f)
            if (v != "") { if (f == "shared_loads_per_ffma") printf "%.2f\n", v; else print v }
            exit
        }' l="${2%%:*}" k="$([[ "$2" == *:* ]] && echo "${2#*:}")" f="$3" "$1/sass.tsv"
}

# resources DIR LABEL FIELD: a kernel's registers, blocks_per_sm or
# occupancy, from a report's resources.tsv (make occupancy).  LABEL:kernel
# picks one kernel of several.  Prints nothing if it is absent.
resources() {
    [ -f "$1/resources.tsv" ] || return 0
    report_awk 'FNR > 1 && $1 == l && (k == "" || index($2, k) == 1) {
            if (f == "registers") print column("registers")
            else if (f == "blocks_per_sm") print column("blocks_per_sm")
            else if (f == "occupancy") printf "%.0f %%\n", column("occupancy_pct")
            exit
        }' l="${2%%:*}" k="$([[ "$2" == *:* ]] && echo "${2#*:}")" f="$3" "$1/resources.tsv"
}

# figure NAME OUT.pdf [GNUPLOT-ASSIGNMENTS]: draws slides/figures/NAME.gp.
# Each script sets its own terminal and reads `out` and the assignments.
figure() {
    local name=$1 out=$2 vars=${3:-}
    gnuplot -e "out='$out'; figdir='$ROOT/slides/figures'; $vars" "$ROOT/slides/figures/$name.gp" ||
        { echo "slides: gnuplot failed on slides/figures/$name.gp ($vars)" >&2; return 1; }
}
