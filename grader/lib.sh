# Shell helpers the grading scripts share (grade.sh, grade_all.sh,
# kit_check.sh, gradescope/run_autograder, the grader's tests).  Sourced,
# never run.

. "$(dirname "${BASH_SOURCE[0]}")/../common/c_numbers.sh"   # C's numbers, whatever the locale
. "$(dirname "${BASH_SOURCE[0]}")/../common/job_pool.sh"    # wait_for_slot

grader_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# die MESSAGE...: MESSAGE on stderr after the script's name ($me, which the
# script sets: grade, grade-all, ...), and exit 2: the command was refused
# or could not start, which is no grade.
die() { echo "${me:-$(basename "$0")}: $*" >&2; exit 2; }

# The stages' points tables, in stage order: one per stage, beside its
# suite (grader/suites/<stage>.points.tsv).
points_tables() { ls "$grader_dir"/suites/*.points.tsv; }
points_table() { echo "$grader_dir/suites/$1.points.tsv"; }
# stage_tables STAGE...: the points tables of those stages, in that order.
stage_tables() { local s; for s in "$@"; do points_table "$s"; done; }

# The stages the kit grades, in order.
kit_stages() { score stages $(points_tables); }

# score MODE [-v NAME=VALUE]... FILE...: grader/score.awk, the one program
# that computes a score (its header lists the modes).
score() {
    local mode=$1
    shift
    awk -F'\t' -v mode="$mode" -f "$grader_dir/score.awk" "$@"
}

# The nvcc common/backend.mk would use (NVCC, else on PATH, else
# /usr/local/cuda/bin), or nothing.
nvcc_path() {
    local nvcc=${NVCC:-$(command -v nvcc 2>/dev/null)}
    [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
    echo "$nvcc"
}

# has_stage DIR: whether DIR, a folder and not a link to one, holds a
# stage's work, matmul.cu or answers.txt, as plain files (links are not
# followed: one could point at the solutions).
has_stage() {
    local f
    [ -L "$1" ] && return 1
    for f in matmul.cu answers.txt; do [ -f "$1/$f" ] && [ ! -L "$1/$f" ] && return 0; done
    return 1
}

# submission_folders DIR: DIR and the folders under it, up to 5 levels down,
# NUL-separated in bytewise order; hidden ones and macOS's __MACOSX are not
# a student's work.  depth_below DIR SUB: how many levels SUB is below DIR.
submission_folders() {
    find "$1" -maxdepth 5 \( -name __MACOSX -o -name '.?*' \) -prune -o -type d -print0 2>/dev/null | LC_ALL=C sort -z
}
depth_below() {
    local rel=${2#"$1"}
    rel=${rel//[^\/]/}
    echo ${#rel}
}

# stages_folder DIR STAGE...: the folder under DIR (DIR itself, or up to 5
# levels down) shaped like labs/ that holds the most of the STAGEs (a stage
# counts when has_stage holds for its folder); on a tie the shallowest, then
# one named labs.  Nothing when no folder holds any.  An upload, or a
# student's folder that is a copy of the whole kit (labs/ inside it), is
# graded from the folder this finds.
stages_folder() {
    local top=$1 dir n s depth is_labs best='' best_n=0 best_depth=0 best_labs=0
    shift
    while IFS= read -r -d '' dir; do
        n=0
        for s in "$@"; do has_stage "$dir/$s" && n=$((n + 1)); done
        [ $n -gt 0 ] || continue
        depth=$(depth_below "$top" "$dir")
        is_labs=0; [ "${dir##*/}" = labs ] && is_labs=1
        if [ $n -gt $best_n ] || { [ $n -eq $best_n ] && { [ $depth -lt $best_depth ] ||
                { [ $depth -eq $best_depth ] && [ $is_labs -gt $best_labs ]; }; }; }; then
            best=$dir best_n=$n best_depth=$depth best_labs=$is_labs
        fi
    done < <(submission_folders "$top")
    [ -z "$best" ] || echo "$best"
}

# loose_stage_folder DIR STAGE: where one stage's two files lie on their own,
# the way a course's site collects one assignment (matmul.cu and answers.txt
# uploaded without their folder): the shallowest folder under DIR (DIR
# itself, or up to 5 levels down) that holds either, as has_stage says.  A
# folder named for another stage is not taken (DIR included: make grade
# SUBMISSION=labs/03-shared-3x3 LAB=01-naive): its files are that stage's
# work, not STAGE's.  Nothing when none is found.
loose_stage_folder() {
    local top=$1 stage=$2 dir depth best='' best_depth=0 others
    others=$(kit_stages | grep -vx -- "$stage")
    while IFS= read -r -d '' dir; do
        has_stage "$dir" || continue
        printf '%s\n' "$others" | grep -qx -- "${dir##*/}" && continue
        depth=$(depth_below "$top" "$dir")
        if [ -z "$best" ] || [ "$depth" -lt $best_depth ]; then
            best=$dir best_depth=$depth
        fi
    done < <(submission_folders "$top")
    [ -z "$best" ] || echo "$best"
}

# is_archive FILE: whether FILE's name is an archive's (.zip, a tarball,
# .7z, .rar), whatever the case of its letters.
is_archive() {
    case "${1,,}" in
        *.zip|*.tar|*.tar.gz|*.tgz|*.tar.bz2|*.tar.xz|*.7z|*.rar) return 0 ;;
    esac
    return 1
}

# archives_in DIR: the archives in DIR or a folder just under it (work a
# student uploaded still packed), comma-separated, or nothing.  The grader
# never unpacks one (what lands where is the archive's choice); it says so,
# so the work is unpacked and graded rather than scored 0 unseen.
archives_in() {
    local f
    (cd "$1" 2>/dev/null && find . -maxdepth 2 -type f -print0 | LC_ALL=C sort -z |
        while IFS= read -r -d '' f; do is_archive "$f" && printf '%s\n' "${f#./}"; done |
        head -n 5 | paste -sd, - | sed 's/,/, /g')
}

# other_kernel_files DIR: files in a stage folder DIR that look like a kernel
# saved under another name (MatMul.cu, kernel.cu, matmul.cu.txt), comma-
# separated, or nothing: only matmul.cu is graded, so the student is told
# what to rename.
other_kernel_files() {
    (cd "$1" 2>/dev/null && ls -d -- *.cu *.cu.* *.cuh [Mm][Aa][Tt][Mm][Uu][Ll]* 2>/dev/null) |
        grep -vx matmul.cu | sort -u | head -n 5 | paste -sd, - | sed 's/,/, /g'
}

# Whether a simulator build asks nvcc first (NVCC_CHECK, common/backend.mk):
# by default wherever nvcc is.
nvcc_checks() {
    case "${NVCC_CHECK:-}" in
        0) return 1 ;;
        *) [ -n "$(nvcc_path)" ] ;;
    esac
}

# The backend common/backend.mk would choose: gpu when a GPU and nvcc are
# both there, else the CPU simulator.
detect_backend() {
    local gpus
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ "${gpus:-0}" -gt 0 ] && [ -n "$(nvcc_path)" ]; then
        echo gpu
    else
        echo sim
    fi
}

# kit_error WHAT [DETAIL...]: the kit, not the student, cannot grade here.
# Says so on standard error and ends the script with status 2, the status
# `make grade` documents for it.
kit_error() {
    printf "kit error: %s (this is not the student's code)\n" "$1" >&2
    shift
    local line
    for line in "$@"; do printf '  %s\n' "$line" >&2; done
    printf '  No score was given.\n' >&2
    exit 2
}

# programs_can_run_in DIR SETTING: a kit error unless a program can start
# from DIR (SETTING names the variable that chose it).  On a filesystem
# mounted noexec (a hardened /tmp, say) no program built there could start,
# and every kernel test would read as the student's failure.
programs_can_run_in() {
    # A probe of its own: the slices of a cluster job share the folder.
    local probe ran=1
    probe=$(mktemp "$1/.can-run-programs.XXXXXX") && printf '#!/bin/sh\nexit 0\n' > "$probe" &&
        chmod +x "$probe" && "$probe" 2>/dev/null && ran=0
    [ -n "$probe" ] && rm -f "$probe"
    [ $ran -eq 0 ] && return 0
    kit_error "programs cannot run from $2=$1 (is its filesystem mounted noexec?)" \
        "choose a folder where programs may run: $2=dir"
}

# build_variants STAGE: "variant<TAB>defines" for each build of STAGE that
# grader/variants.tsv adds to its plain one (names starting with "check" are
# the simulator's check builds).
build_variants() {
    awk -F'\t' -v s="$1" '!/^#/ && $1 == s { print $2 "\t" $3 }' "$grader_dir/variants.tsv"
}

# forget_test_selection: unsets what picks a subset of a stage's tests
# (Check's own settings, and grade.sh's GRADE_CASES), for a grade that must
# run every test whatever its caller was asked to run.
forget_test_selection() {
    unset CK_RUN_CASE CK_RUN_SUITE CK_EXCLUDE_CASE CK_EXCLUDE_SUITE CK_INCLUDE_TAGS CK_EXCLUDE_TAGS GRADE_CASES
}
