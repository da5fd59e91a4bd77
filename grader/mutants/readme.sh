#!/usr/bin/env bash
# Writes this folder's README.md from the mutants themselves: each patch's
# "# what:" and "# targets:" lines make its row, notes.md the rest.
#
#   grader/mutants/readme.sh           rewrite README.md
#   grader/mutants/readme.sh --check   exit 1 if README.md is not what it would write
set -u
here=$(cd "$(dirname "$0")" && pwd)

# header_field PATCH FIELD: the value of a "# FIELD: ..." line.
header_field() { sed -n "s/^# $2: *//p" "$1" | head -n 1; }

write() {
    cat <<'INTRO'
# Wrong kernels the grader must fail ("mutants")

<!-- Written by readme.sh from the patches and notes.md: edit those. -->

Each `<stage>/<name>.patch` breaks one thing in that stage's solution
(`solutions/<stage>/matmul.cu`). Its first lines say what is wrong; its
`# targets:` line names the tests of the stage's points table
(`grader/suites/<stage>.points.tsv`) it must lose, separated by `;` and
spelled exactly as there. The rest is a unified diff, applied at test time
with `patch --fuzz=0`: when the solution changes under a patch, the patch
stops applying and the test fails, naming it, rather than testing a kernel
that has drifted from the solution.

    grader/tests/mutants.sh                        # every mutant
    grader/tests/mutants.sh 04-tiled               # one stage
    grader/tests/mutants.sh 04-tiled/phases-floor  # one mutant
    grader/mutants/readme.sh                       # rewrite this README

The script grades each mutant as the only `matmul.cu` of a fresh submission,
with the solution's `answers.txt`, using `grade.sh` under
`GRADE_TIMEOUT_SCALE=0.3` and `BACKEND=sim` unless `BACKEND` is set. A mutant
is **killed** when every one of its targets fails (score 0). The grader must
also exit 0 for it, and every build must compile. The script prints one line
per mutant, then the kill rate per stage and overall. It exits non-zero
unless every mutant is killed. A mutant is graded on its targets alone:
`grade.sh` makes every build and, with `GRADE_CASES`, runs each target
and no other test. nvcc's check of each build is left out
(`NVCC_CHECK=0` unless set), since no test reads nvcc's numbers.
`MUTANT_JOBS` sets how many mutants are graded at once (the default is the
number of CPUs).
INTRO
    for dir in "$here"/[0-9]*/; do
        stage=$(basename "$dir")
        printf '\n## %s\n\n| mutant | what is wrong | tests aimed at |\n| --- | --- | --- |\n' "$stage"
        for patch in "$dir"*.patch; do
            [ -f "$patch" ] || continue
            printf '| `%s` | %s | %s |\n' "$(basename "$patch" .patch)" \
                "$(header_field "$patch" what)" "$(header_field "$patch" targets)"
        done
    done
    echo
    cat "$here/notes.md"
}

if [ "${1:-}" = --check ]; then
    if ! diff -u "$here/README.md" <(write) > /dev/null; then
        echo "grader/mutants/README.md is out of date: run grader/mutants/readme.sh"
        exit 1
    fi
else
    write > "$here/README.md"
fi
