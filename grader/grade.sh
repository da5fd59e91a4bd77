#!/usr/bin/env bash
# Grades one submission: every stage of the points table (or LAB=one), each
# built from the submission's matmul.cu alone, in a fresh folder.
#
#   grader/grade.sh            (called by `make grade`; settings come from the environment)
#     SUBMISSION  folder shaped like labs/ (default: labs), or one holding
#                 such a folder (a copy of the kit: its labs/ is graded);
#                 with LAB, also one holding that stage's matmul.cu and
#                 answers.txt loose (grader/lib.sh: loose_stage_folder)
#     LAB         grade only this stage, e.g. 01-naive
#     BACKEND     gpu | sim (default: detected)
#     GRADE_OUT   where logs and results.json go (default: build/grade)
#     GRADE_SUITE the grader's own test program (built by make)
#     GRADE_MEMORY_MIB  host memory one run of the student's code may use
#                 beyond the simulator's own (default 2048; grader/student_run.c)
#     GRADE_COMPILE_SECONDS, GRADE_COMPILE_MEMORY_MIB  limits of one build of a
#                 student's file (default 600 s and 4096 MiB)
#     GRADE_KIT_CHECKED=1  skip the kit's own check (grade_all.sh made it once)
#     GRADE_CASES  only these tests of the stage, one name a line, each run
#                 alone, and only the builds they run made (the kit's own
#                 mutants test: grader/tests/mutants.sh)
#     GRADE_DEADLINE  a time (seconds since 1970) by which grading must end:
#                 a stage still running then, and every stage after it, is
#                 "not graded: the time for grading ran out"; the stages
#                 graded before keep their points (Gradescope's limit)
#
# Exit status: 0 when grading finished, whatever the score; 2 when no grade
# could be given: a kit error (the kit cannot grade on this machine:
# grader/kit_check.sh says why) or a bad setting.
#
# Scores come only from here and the grade_suite program, neither of which
# loads student code: what a student's program prints is never read as a
# result.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/lib.sh"
submission=${SUBMISSION:-$root/labs}
out=${GRADE_OUT:-$root/build/grade}
suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
backend=${BACKEND:-$(detect_backend)}
only=${LAB:-}
# No score from an earlier run may outlive this one, even one that stops
# at a bad setting below.
rm -f "$out/results.json" "$out/all.tsv" "$out/provenance.tsv" 2>/dev/null

me=grade   # die's name for this script (grader/lib.sh)
case "$backend" in gpu|sim) ;; *) die "BACKEND=$backend: choose gpu or sim" ;; esac
export GRADE_BACKEND=$backend   # grade_suite confines the simulator's programs (grading.c: run_submission)
deadline=${GRADE_DEADLINE:-}
[ -z "$deadline" ] || [[ $deadline =~ ^[0-9]+$ ]] || die "GRADE_DEADLINE=$deadline is not a time in seconds since 1970"
seconds_left() { echo $((deadline - $(date +%s))); }
[ -d "$submission" ] || die "SUBMISSION=$submission is not a folder"
[ -x "$suite" ] || die "$suite is missing (run through make grade)"
submission=$(cd "$submission" && pwd)
given=$submission   # as the user named it, for messages
stages=$(kit_stages) || die "the points tables (grader/suites/*.points.tsv) cannot be read"
if [ -n "$only" ]; then
    echo "$stages" | grep -qx -- "$only" || die "LAB=$only is not a stage; stages: $(echo $stages)"
    stages=$only
fi
# A student's folder may be a copy of the whole kit (a clone of the course's
# repository, the unpacked handout) with labs/ inside it: when no stage
# folder is at its top, the folder in it that holds the stages is graded
# (grader/lib.sh: stages_folder), and the grade says which.
graded_note=
top_has_stage=
inner=
loose=
for s in $stages; do has_stage "$submission/$s" && { top_has_stage=1; break; }; done
if [ -z "$top_has_stage" ]; then
    inner=$(stages_folder "$submission" $stages)
    if [ -n "$inner" ] && [ "$inner" != "$submission" ]; then
        graded_note="Graded ${inner#"$submission"/}, the folder of the submission that holds the stages."
        echo "grade: no stage folder at the top of $submission: grading $inner, the folder in it that holds the stages"
        submission=$inner
    fi
    # One stage may also come as its two files on their own, with no folder
    # of the stage's name (as Gradescope's run_autograder takes them too).
    [ -z "$inner" ] && [ -n "$only" ] && loose=$(loose_stage_folder "$submission" "$only")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Each stage is built by make in a folder under GRADE_OUT, from the kit's
# makefiles, and make splits paths at their spaces: every build would fail
# and the student lose the kernel points.  A submission's own folder is
# only read, so it may have spaces.
[[ $root != *[[:space:]]* ]] || die "the kit's folder, $root, has a space in its path, where make cannot build: move the kit to a path without spaces"
[[ $out != *[[:space:]]* ]] || die "GRADE_OUT=$out has a space in its path, where make cannot build: choose a folder without spaces"
# Every program a stage builds runs from GRADE_OUT.
programs_can_run_in "$out" GRADE_OUT
# Loose files are graded from a folder shaped like labs/ made for them
# (plain files only: a link could point at the solutions).
if [ -n "$loose" ]; then
    rm -rf "$out/loose-files"
    mkdir -p "$out/loose-files/$only"
    for f in matmul.cu answers.txt; do
        [ -f "$loose/$f" ] && [ ! -L "$loose/$f" ] && cp "$loose/$f" "$out/loose-files/$only/$f"
    done
    where=${loose#"$submission"}; where=${where#/}
    loose_files=$(cd "$out/loose-files/$only" && ls | paste -sd, - | sed 's/,/ and /')
    graded_note="Graded $loose_files in ${where:-the top of the submission} as $only (no folder named $only)."
    if [ "${loose##*/}" = "$only" ]; then
        echo "grade: $loose is the $only folder itself: grading its $loose_files"
    else
        echo "grade: no folder named $only in $submission: grading its $loose_files${where:+ (in $where)} as $only"
    fi
    submission=$out/loose-files
fi

# The kit itself first: if it cannot grade here, nobody gets a score.
if [ "${GRADE_KIT_CHECKED:-}" != 1 ]; then
    GRADE_OUT="$out" GRADE_SUITE="$suite" "$root/grader/kit_check.sh" "$backend" || exit 2
fi

# Every test of a stage fails with one reason (no time left).
fail_stage() {
    score unscored -v why="$2" "$(points_table "$1")" |
        awk -F'\t' -v OFS='\t' '{ print $1, $2, "fail", $5 }' > "$out/$1/results.tsv.joined"
}

# What a simulator build says of code it cannot run (common/sim/cuda_sim.h):
# a limit of the kit, never called the student's compile error.
# not_simulated_why LOG: what the build in LOG asked for, in words.
not_simulated_marker='not simulated:'
kit_limit_tail="a limit of the kit, not a mistake in the code; grade this stage on a GPU (BACKEND=gpu)"
# On a GPU only the structural tests (the check builds) need the simulator,
# and no backend runs them without it: say so, not "grade on a GPU".
[ "$backend" = gpu ] && kit_limit_tail="a limit of the kit, not a mistake in the code; the structural tests run on the CPU simulator on every backend, so they cannot be graded for this file and count 0 here, while its other tests are graded on this GPU"
not_simulated_why() {
    local cg_name
    cg_name=$(grep -oE "cooperative_groups::[A-Za-z_:]+ (of more than 32 threads )?is not simulated: [^,;]*" "$1" |
        head -n 1 | sed -E 's/ is not simulated: (.*)/ (\1)/')
    if grep -qF '__activemask() is not simulated' "$1"; then
        echo "uses __activemask(), which names the lanes a GPU runs together at that moment, something the CPU simulator (lanes one after another) does not have: $kit_limit_tail, or pass a mask the kernel computes"
    elif [ -n "$cg_name" ]; then
        echo "uses $cg_name, which the CPU simulator does not provide: $kit_limit_tail"
    elif grep -qF 'inline assembly (asm) is not simulated' "$1"; then
        echo "uses inline assembly (asm), whose PTX instructions only a GPU runs, while the CPU simulator compiles the file for the CPU: $kit_limit_tail, or write it with CUDA's C++ functions (__ldg, __pipeline_memcpy_async, ...; for mma.sync, the kit's mma_tf32.h, which lesson 10 uses)"
    elif grep -qF 'a kernel launch that leaves parameters to their default arguments is not simulated' "$1"; then
        echo "launches a kernel with parameters left to their default arguments, which nvcc fills in and the CPU simulator cannot see (it knows a kernel by its address): $kit_limit_tail, or pass every argument"
    elif grep -qF 'cudaLaunchKernel with the kernel as a pointer to void (its C form) is not simulated' "$1"; then
        echo "launches its kernel with cudaLaunchKernel given the kernel as a pointer to void (the C form), which does not say the kernel's parameter types, and the CPU simulator calls a kernel as a C++ function: $kit_limit_tail, or pass the kernel itself, cudaLaunchKernel(kernel, grid, block, args, ...)"
    elif grep -qF 'the occupancy API (cudaOccupancy*, cudaFuncGetAttributes) is not simulated' "$1"; then
        echo "asks the occupancy API (cudaOccupancy*, cudaFuncGetAttributes), which answers from the registers nvcc gives the kernel, and without nvcc (no CUDA toolkit here, or NVCC_CHECK=0) the CPU simulator has none: $kit_limit_tail, or where the CUDA toolkit is"
    else
        # A refusal this list does not know yet: the simulator's own words.
        echo "uses what the CPU simulator refuses: $(grep -oE "[^:\"']+ is $not_simulated_marker [^\"]*" "$1" | head -n 1 | sed 's/^ *//')"
    fi
}

# forbidden_include DEPS DIR: the first file a build of the student's file
# included (DEPS, the compiler's dependency list) that no submission may: a
# .cu file other than its own (a solution, the canary: on a GPU they would
# compile and pass), or any file of the kit outside common/.  The stage's
# own build folder DIR (the student's copy, the simulator's rewrite of it)
# and headers outside the kit are fine.
forbidden_include() {
    local deps=$1 dir
    [ -f "$deps" ] || return 1
    dir=$(realpath -m "$2")
    sed -e 's/^[^:]*://' -e 's/\\$//' "$deps" | tr ' ' '\n' | grep -v '^$' |
        xargs -r realpath -m -- | awk -v root="$(realpath -m "$root")/" -v dir="$dir/" '
            index($0, dir) == 1 { next }
            # The system headers of a clang that make deps unpacked into the
            # kit for a user without root (common/fetch_deps.sh) are no file of the kit.
            index($0, root "build/tools/deps/") == 1 { next }
            /\.cu$/ || (index($0, root) == 1 && index($0, root "common/") != 1) { print; exit }'
}

# A student's file can make the compiler run forever or fill the machine's
# memory (`#include "/dev/zero"` does both): each build has a time limit and
# a memory limit, and meeting one is that stage's compile error.
compile_seconds=${GRADE_COMPILE_SECONDS:-600}
compile_memory_mib=${GRADE_COMPILE_MEMORY_MIB:-4096}

# show_build_log STAGE LOG: the compiler's and linker's lines of a failed
# build, in the student's names for files and CUDA's.
show_build_log() {
    grep -E 'error|warning|note|out of memory|undefined reference|multiple definition' "$2" | head -n 30 |
        sed -e "s|$(dirname "$2")/src/|$1/|g" -e "s|$root/||g" -e "$spelled_back" -e 's/^/   | /'
}

# build_lab STAGE DIR SUBDIR DEFINES: builds DIR/SUBDIR/lab_exec from the
# submission's file; on failure shows the compiler's messages and returns 1,
# 3 when the simulator cannot build what a GPU would run, 4 when the file
# includes one it may not (forbidden_include), 5 when it calls a library
# (libraries_called, set to their names).
build_lab() {
    local stage=$1 dir=$2 sub=$3 defines=$4 target="$2/$3/lab_exec" how=BACKEND=$backend status checked=
    # Variants named check...: the simulator's instrumented build, whatever
    # the backend, for the structural tests.  nvcc's check of the same file
    # with the same defines was made by the plain build before it (build-check-X
    # after build-X): build.mk copies it when that build's settings match.
    case "$sub" in build-check*) target="$dir/$sub/check/lab_exec"; how=BACKEND=sim
                                 checked=$dir/build${sub#build-check} ;; esac
    # The compilers' temporaries go to the build's scratch, so that a build
    # stopped at its limit (nvcc leaves its files behind) leaves nothing in
    # the machine's /tmp.
    rm -rf "$dir/$sub.tmp" && mkdir -p "$dir/$sub.tmp"
    # No build outlasts the time for grading (GRADE_DEADLINE).
    local seconds=$compile_seconds
    [ -n "$deadline" ] && [ "$(seconds_left)" -lt "$seconds" ] && seconds=$(( $(seconds_left) > 1 ? $(seconds_left) : 1 ))
    (
        ulimit -d $((compile_memory_mib * 1024)) 2>/dev/null
        export TMPDIR="$dir/$sub.tmp"
        LC_ALL=C exec timeout -k 5 "$seconds" make --no-print-directory -f "$root/grader/lab_exec.mk" $how \
            LAB_SRC="$dir/src/matmul.cu" LAB_NAME="$stage" OUT="$dir/$sub" LAB_DEFINES="$defines" NVCC_CHECKED="$checked" "$target"
    ) > "$dir/$sub.log" 2>&1
    status=$?
    rm -rf "$dir/$sub.tmp"
    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
        echo "   $stage/matmul.cu${defines:+ with $defines}: the compiler did not finish within $compile_seconds s and was stopped (an #include of a device or a huge file? code that makes it loop?)"
        return 1
    fi
    if [ $status -eq 0 ]; then
        local included
        included=$(forbidden_include "$(dirname "$target")/matmul.d" "$dir")
        [ -z "$included" ] && return 0
        echo "   $stage/matmul.cu includes ${included#"$root"/}: a submission is graded on its own matmul.cu, which may include lab.h and the CUDA and C/C++ headers, but no other file of the kit and no other .cu file"
        rm -f "$target"
        return 4
    fi
    # A library's functions: a GPU build does not link them, and the
    # simulator, missing their header, would otherwise call it a kit limit.
    libraries_called=$("$root/common/libraries_called.sh" "$dir/src/matmul.cu" | paste -sd';' - | sed 's/;/; /g')
    if [ -n "$libraries_called" ]; then
        echo "   $stage/matmul.cu calls a library (${libraries_called}): a lab's program links the CUDA runtime and no library besides, so it builds neither on a GPU nor on the simulator; the lab grades the product of your own kernels. The compiler said:"
        show_build_log "$stage" "$dir/$sub.log"
        return 5
    fi
    if grep -qF -- "$not_simulated_marker" "$dir/$sub.log"; then
        kit_limit_why=$(not_simulated_why "$dir/$sub.log")
        echo "   kit limit: $stage/matmul.cu $kit_limit_why"
        return 3
    fi
    local missing="" by_nvcc=""
    # The simulator's build asked nvcc first (NVCC_CHECK, common/backend.mk).
    grep -q '^nvcc-check: ' "$dir/$sub.log" && by_nvcc=1
    [ "$how" = BACKEND=sim ] && [ -z "$by_nvcc" ] &&
        missing=$("$root/common/sim/names_not_simulated.sh" "$dir/$sub.log")
    # A failure after nvcc's check passed: nvcc's whole build of the file
    # decides whose it is (common/sim/nvcc_accepted.sh).
    local accepted="" log="$dir/$sub.log" verdict=1
    if [ "$how" = BACKEND=sim ] && [ -z "$missing" ]; then
        LC_ALL=C TMPDIR="$dir" timeout -k 5 "$compile_seconds" "$root/common/sim/nvcc_accepted.sh" "$dir/$sub" "$log" \
            -f "$root/common/build.mk" BACKEND=sim LAB_SRC="$dir/src/matmul.cu" LAB_NAME="$stage" OUT="$dir/$sub" \
            LAB_DEFINES="$defines"
        verdict=$?
    fi
    case $verdict in
    0) accepted=1 ;;
    1) ;;
    *) by_nvcc=1 log="$dir/$sub.nvcc.log"  # beside the build's own log, as show_build_log reads paths
       mv -f "$dir/$sub/nvcc-full-check.log" "$log" 2>/dev/null ;;
    esac
    if [ -n "$by_nvcc" ]; then
        echo "   $stage/matmul.cu does not compile with nvcc, the CUDA compiler${defines:+ (with $defines)}, so it would not build on a GPU either; nvcc said:"
    elif [ -n "$missing" ]; then
        kit_limit_why="uses $missing, which CUDA provides and the CPU simulator does not: $kit_limit_tail"
        echo "   kit limit: $stage/matmul.cu $kit_limit_why. The simulator's compiler said:"
    elif [ -n "$accepted" ]; then
        # nvcc compiled this very file first: it is CUDA that builds on a
        # GPU, whatever the simulator's compiler says of it.
        kit_limit_why="compiles with nvcc, the CUDA compiler${defines:+ (with $defines)}, as a GPU build would, but not for the CPU simulator: $kit_limit_tail"
        echo "   kit limit: $stage/matmul.cu $kit_limit_why. The simulator's compiler said:"
    else
        echo "   $stage/matmul.cu does not compile${defines:+ with $defines}; the compiler said:"
    fi
    grep -q 'out of memory' "$log" &&
        echo "   (a build may use $compile_memory_mib MiB of memory: GRADE_COMPILE_MEMORY_MIB)"
    show_build_log "$stage" "$log"
    # A header of the student's own beside matmul.cu, which is graded alone.
    local header
    while IFS= read -r header; do
        echo "   ($stage/matmul.cu includes $header, which is in its folder: a lab is one file, and the grader takes matmul.cu alone, so move what $header holds into matmul.cu)"
    done < <("$root/common/own_includes.sh" "$dir/src/matmul.cu" "$(dirname "$src")")
    # The linker's complaint about the one name the harness calls, in words.
    grep -qE "undefined reference to .matmul(\(|')" "$dir/$sub.log" &&
        echo "   ($stage/matmul.cu defines no function void matmul(const float *A, const float *B, float *C, int n), which the kit's harness calls: is it spelt so, with these parameter types, and not static?)"
    # ptxas counts in hexadecimal: the same in words.
    local shared_bytes
    shared_bytes=$(grep -oE 'uses too much shared data \(0x[0-9a-f]+ bytes' "$dir/$sub.log" | head -n 1 | grep -oE '0x[0-9a-f]+')
    [ -n "$shared_bytes" ] &&
        echo "   (that is $((shared_bytes)) bytes of static __shared__ arrays in one block; a block may declare at most 48 KiB (49152 bytes) statically, and more only as extern __shared__ memory, after cudaFuncSetAttribute raises the limit)"
    local constant_bytes
    constant_bytes=$(grep -oE 'uses too much global constant data \(0x[0-9a-f]+ bytes' "$dir/$sub.log" | head -n 1 | grep -oE '0x[0-9a-f]+')
    [ -n "$constant_bytes" ] &&
        echo "   (that is $((constant_bytes)) bytes of __constant__ variables in the file; a GPU has 64 KiB (65536 bytes) of constant memory: larger data stays in global memory, read through a const pointer)"
    [ -n "$missing$accepted" ] && return 3
    return 1
}

# setting_not_taken STAGE DEFINES: a file that built as it is fails with a
# setting the grader builds it with (-DTILE=16): most often a constant of
# that name of its own (constexpr int TILE = 32), which the macro turns into
# "constexpr int 16 = 32".  Said before the compiler's message.
setting_not_taken() {
    local name=${2#-D}
    name=${name%%=*}
    echo "   $1/matmul.cu builds as it is, but not with $2, as the grader builds it for this stage's tests at that setting: the file must take $name from the command line, as the skeleton's #ifndef $name / #define $name ... / #endif does (a constexpr, enum or variable named $name collides with the macro)"
}

# The simulator's build renames CUDA's reserved names (SIM_GLOBAL for
# __global__, ...; common/sim/cuda_spellings.h): its compiler's messages are
# shown with the names the student wrote.
spelled_back=
rewriter="$root/build/sim/common/rewrite_launch"
if [ -x "$rewriter" ]; then
    spelled_back=$("$rewriter" --spellings | awk -F'\t' '{ printf "s/\\<%s\\>/%s/g;", $1, $2 }')
fi

# compiler_warnings STAGE DIR: when the stage lost kernel points, what the
# compiler warned about the student's file, which often says why (a sum
# never set to zero: "'s' may be used uninitialized"): the first warning on
# one line, every one with V=1.  A file that built cleanly, or scored every
# kernel point, shows nothing, nor one that did not build (build_lab showed
# its messages, warnings with them).
compiler_warnings() {
    local stage=$1 dir=$2 warnings count
    [ -f "$dir/build.log" ] && [ -f "$dir/scored.tsv" ] && [ -x "$dir/build/lab_exec" ] || return 0
    awk -F'\t' '$2 !~ /^quiz / && $3 < $4 { lost = 1 } END { exit !lost }' "$dir/scored.tsv" || return 0
    # gcc and clang: "FILE:L:C: warning: ..."; nvcc: "FILE(L): warning #N-D: ...".
    warnings=$(grep -F -- "$dir/src/matmul.cu" "$dir/build.log" | grep -E '^[^ ]*matmul\.cu(:[0-9]+(:[0-9]+)?|\([0-9]+\)): warning' |
        sed -e "s|$dir/src/|$stage/|g" -e "$spelled_back" | awk '!seen[$0]++')
    [ -n "$warnings" ] || return 0
    count=$(wc -l <<< "$warnings")
    if [ "${V:-}" = 1 ]; then
        echo "    the compiler warned (a warning often explains a wrong result):"
        sed 's/^/    | /' <<< "$warnings"
    else
        echo "    compiler warning: $(head -n 1 <<< "$warnings" | sed -E 's/: warning( #[0-9]+-D)?:/:/')$(
            [ "$count" -gt 1 ] && echo " (and $((count - 1)) more: make grade V=1)")"
    fi
}

# The lowest-numbered "TODO n" still in a file, as a hint.
first_todo() {
    grep -n -o 'TODO [0-9][0-9]*' "$1" 2>/dev/null | sort -t' ' -k2,2n | head -n 1 |
        awk -F: '{ print $2 " (line " $1 ")" }'
}

# builds_run_by STAGE TESTS: the build folders (build, build-TILE_16, ...)
# the tests named in TESTS, one a line, run: grade_suite says which each runs.
builds_run_by() {
    GRADE_BACKEND=$backend "$suite" --builds "$1" |
        awk -F'\t' 'NR == FNR { wanted[$0] = 1; next } ($1 in wanted) { print $2 }' <(printf '%s\n' "$2") - |
        tr ' ' '\n' | grep -v '^$' | sort -u
}

# build_stage STAGE: the stage's folder made afresh, the submission's two
# files copied in, and matmul.cu built in each of the stage's variants.
# Prints what the builds said, then, last, a line that starts with
# $no_kernel_mark and says why the kernel's tests cannot run (nothing
# after the mark when they can).
no_kernel_mark=$'\x1e'
build_stage() {
    local stage=$1 dir="$out/$1" answers no_kernel="" others built
    rm -rf "$dir"
    mkdir -p "$dir/src"
    src="$submission/$stage/matmul.cu"
    # Only these two files are taken, and only if they are plain files in a
    # folder of the submission: a link, to either or to the stage's folder,
    # could point at the solutions.
    answers="$submission/$stage/answers.txt"
    if [ -L "$submission/$stage" ]; then
        no_kernel="$stage is a link to another folder, not a folder of the submission: neither its matmul.cu nor its answers.txt was graded"
    elif [ -f "$answers" ] && [ ! -L "$answers" ]; then
        cp "$answers" "$dir/src/answers.txt"
    fi
    if [ -n "$no_kernel" ]; then
        :
    elif [ -L "$src" ] || { [ -e "$src" ] && [ ! -f "$src" ]; }; then
        no_kernel="$stage/matmul.cu is not a plain file (a link?): it was not graded"
    elif [ ! -f "$src" ]; then
        no_kernel="no $stage/matmul.cu in the submission ($given): its kernel tests score 0"
        others=$(other_kernel_files "$submission/$stage")
        [ -n "$others" ] && no_kernel+="; the folder has $others: the file graded must be named matmul.cu"
        archives=$(archives_in "$given")
        [ -n "$archives" ] && no_kernel+="; the submission holds $archives, which the grader does not unpack: unpack it into the submission's folder and grade again"
    else
        cp "$src" "$dir/src/matmul.cu"
        build_lab "$stage" "$dir" build ""
        built=$?
        if [ $built -eq 3 ]; then
            no_kernel="not graded on the simulator: matmul.cu $kit_limit_why"
        elif [ $built -eq 5 ]; then
            no_kernel="matmul.cu calls a library (${libraries_called}), which no lab links: its kernel tests score 0"
        elif [ $built -eq 4 ]; then
            no_kernel="matmul.cu includes a file of the kit that is not a header (above): its kernel tests score 0"
        elif [ $built -ne 0 ]; then
            no_kernel="matmul.cu does not compile (the compiler's messages are above)"
        else
            # Build variants (grader/variants.tsv): the same file rebuilt
            # with other settings, e.g. another tile width; their tests
            # fail alone.
            # The compiler's messages once, for the first that fails.
            # Tests run alone (GRADE_CASES) need only the builds they run
            # (grade_suite --builds): the others are not made.
            local wanted=""
            [ -n "${GRADE_CASES:-}" ] && wanted=$(builds_run_by "$stage" "$GRADE_CASES")
            build_variants "$stage" |
                {
                    failed_before=""
                    while IFS=$'\t' read -r variant defines; do
                        [ -n "${GRADE_CASES:-}" ] && ! grep -qxF "build-${variant//=/_}" <<< "$wanted" && continue
                        # make reads an argument with "=" as a variable: no "=" in paths.
                        shown=$(build_lab "$stage" "$dir" "build-${variant//=/_}" "$defines") && continue
                        if [ -n "$failed_before" ]; then
                            echo "   (the tests of $variant score 0: it does not build${defines:+ with $defines} either)"
                            continue
                        fi
                        failed_before=1
                        [ -n "$defines" ] && setting_not_taken "$stage" "$defines"
                        echo "$shown"
                        echo "   (the tests of $variant score 0)"
                    done
                }
        fi
    fi
    printf '%s%s\n' "$no_kernel_mark" "$no_kernel"
}

# With two cores or more, the next stage is built while this one's tests
# run (builds use one core, and most of a stage's tests one or two), into
# a pipe this script reads when that stage's turn comes: a stage's lines
# come out in the same order as without.  The tests themselves still run
# one stage at a time, so a student's program never runs beside another.
build_ahead=0
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && build_ahead=1
ahead_stage="" ahead_fd=""
start_build_ahead() {
    exec {ahead_fd}< <(build_stage "$1")
    ahead_stage=$1
}
drop_build_ahead() {
    [ -n "$ahead_stage" ] || return 0
    exec {ahead_fd}<&-
    ahead_stage=""
}

scored=""
stage_list=($stages)
for ((k = 0; k < ${#stage_list[@]}; k++)); do
    stage=${stage_list[k]}
    dir="$out/$stage"
    echo "== $stage ($backend backend) =="
    no_kernel=""   # why the kernel's tests cannot run, when they cannot
    ran_out=""
    if [ -n "$deadline" ] && [ "$(seconds_left)" -le 5 ]; then
        ran_out=before
    elif [ "$ahead_stage" = "$stage" ]; then
        built=$(cat <&"$ahead_fd")
        drop_build_ahead
    else
        built=$(build_stage "$stage")
    fi
    # Builds stop at the deadline too (build_lab).
    [ -z "$ran_out" ] && [ -n "$deadline" ] && [ "$(seconds_left)" -le 5 ] && ran_out=during
    if [ -n "$ran_out" ]; then
        drop_build_ahead
        rm -rf "$dir" && mkdir -p "$dir"
        fail_stage "$stage" "not graded: the time for grading ran out $ran_out this stage"
    else
        no_kernel=${built##*"$no_kernel_mark"}
        built=${built%"$no_kernel_mark"*}
        [ -z "$built" ] || printf '%s' "$built"
        next=${stage_list[k + 1]:-}
        [ "$build_ahead" = 1 ] && [ -n "$next" ] && start_build_ahead "$next"
        # The suite runs even with no kernel to run: the kernel's tests then
        # fail at once (its program does not exist) and the quiz is graded.
        # Whatever a student's program left in this folder is not read: the
        # joined results are written afresh from the suite's.
        rm -f "$dir/results.tsv" "$dir/results.tsv.joined" "$dir/kit_error"
        limit=()
        [ -n "$deadline" ] && limit=(timeout -k 5 "$(seconds_left)")
        if [ -z "${GRADE_CASES:-}" ]; then
            "${limit[@]}" "$suite" "$stage" "$dir/build/lab_exec" "$dir" > "$dir/suite.log" 2>&1
            rc=$?
        else
            # Each named test alone (Check's CK_RUN_CASE), their results
            # joined: the builds are made once, and no other test is run.
            : > "$dir/suite.log"
            rc=0 cases_results=""
            while IFS= read -r case_name; do
                [ -n "$case_name" ] || continue
                CK_RUN_CASE=$case_name "${limit[@]}" "$suite" "$stage" "$dir/build/lab_exec" "$dir" >> "$dir/suite.log" 2>&1 ||
                    { rc=$?; break; }
                ran=$(cat "$dir/results.tsv")
                [ -z "$ran" ] || cases_results+=$ran$'\n'
            done <<< "$GRADE_CASES"
            [ $rc -eq 0 ] && printf '%s' "$cases_results" > "$dir/results.tsv"
        fi
        # A student's program the grader could not start (grading.c) is
        # the machine's failure: no score for anyone, and why.
        if [ -s "$dir/kit_error" ]; then
            kit_error "$(head -n 1 "$dir/kit_error")" \
                "the machine refused what is named above (a process limit, a folder's rights), before any of the student's code ran" \
                "log: $dir/suite.log"
        fi
        if [ $rc -eq 0 ]; then
            awk -F'\t' -v OFS='\t' -v s="$stage" '{ print s, $0 }' "$dir/results.tsv" > "$dir/results.tsv.joined"
            # Every test the suite ran has its points, and every row of the
            # points table a test: anything else is the kit's bug, never a
            # test silently dropped from the score.
            # (CK_RUN_CASE, Check's own setting, runs one test on purpose;
            # GRADE_CASES runs several.)
            subset=0
            [ -n "${CK_RUN_CASE:-}${GRADE_CASES:-}" ] && subset=1
            disagree=$(score agree -v subset=$subset "$(points_table "$stage")" "$dir/results.tsv.joined") ||
                kit_error "the points table and the $stage suite disagree" "$disagree"
        elif [ -n "$deadline" ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; then
            fail_stage "$stage" "not graded: the time for grading ran out during this stage"
        else
            # The suite never runs student code: its failure is the kit's.
            kit_error "the grader's program failed on $stage" "$(tail -n 3 "$dir/suite.log")" "log: $dir/suite.log"
        fi
    fi
    # A program's own messages name the student's file by its copy here
    # (an assertion's "/.../01-naive/src/matmul.cu:12"): by its name in the
    # submission instead.
    [ -f "$dir/results.tsv.joined" ] && sed -i "s|$dir/src/matmul\.cu|$stage/matmul.cu|g" "$dir/results.tsv.joined"
    # The stage's score and its lines (grader/score.awk).
    score stage -v scored="$dir/scored.tsv" -v todo="$(first_todo "$dir/src/matmul.cu")" -v verbose="${V:-}" \
        -v no_kernel="$no_kernel" "$(points_table "$stage")" "$dir/results.tsv.joined"
    compiler_warnings "$stage" "$dir"
    # Kept in memory, where no later student's program can reach it.
    scored+=$(cat "$dir/scored.tsv")$'\n'
done

# In the student handout the answer keys are left out: say who grades the quiz.
[ -d "$root/grader/answers" ] ||
    echo "The quizzes (answers.txt) are graded by your instructor: the answer keys are not in this copy."

# What this grade was made with (grader/provenance.sh): shown, and kept
# in results.json and for the gradebook.
GRADE_SEED=${GRADE_SEED:-} "$root/grader/provenance.sh" "$backend" "$out" > "$out/provenance.tsv"
awk -F'\t' '{ v[$1] = $2 } END {
    printf "Graded on %s (%s backend) with %s, check mode %s, CUDA %s, seed %s, kit %s\n",
        v["device"], v["backend"], v["compiler"], v["check compiler"], v["cuda"], v["seed"], v["kit"]
    if (v["backend"] == "sim") printf "nvcc check: %s\n", v["nvcc check"] }' "$out/provenance.tsv"

# Totals, and Gradescope's results format.
printf '%s' "$scored" > "$out/all.tsv"
score total -v json_out="$out/results.json" -v prov="$out/provenance.tsv" -v output="$graded_note" "$out/all.tsv"
echo "results: $out/results.json"
