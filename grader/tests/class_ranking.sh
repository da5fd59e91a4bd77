#!/usr/bin/env bash
# `make grade-all` on a class whose students fail in the ways that matter,
# graded on two stages (01-naive, and 05-padding: a tiled stage with
# structural tests and one build, quicker to grade than 04's two tiles):
#
#   ana  right kernels (the solutions)
#   ben  the untouched skeletons
#   cat  a cheat: stage 01's matmul calls exit(0), stage 05 is the skeleton
#   dan  right, except that stage 05's kernel spins forever from n = 64 on
#   eve  stage 01 transposes B in place and then computes; stage 05 right
#
# The gradebook must rank them as their work deserves (ana first; dan and
# eve each lose only their broken stage's points, and keep the rest; ben
# and cat nothing for their kernels), and dan's hang must cost his stage 05
# one time limit, once: its larger runs are not started.
#
#   grader/tests/class_ranking.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
base="$root/build/test-grading"
class="$base/ranking-class"
out="$base/ranking"
failures=0
. "$root/common/tests/lib.sh"   # fail
. "$root/grader/lib.sh"                       # score, points_table
source "$root/grader/tests/slurm_class.sh"    # gradebook_scores
start=$SECONDS

stages="01-naive 05-padding"
rm -rf "$class" "$out"
for id in ana ben cat dan eve; do mkdir -p "$class/$id"; done
for s in $stages; do
    cp -R "$root/solutions/$s" "$class/ana/"
    cp -R "$root/labs/$s" "$class/ben/"
    cp -R "$root/solutions/$s" "$class/dan/"
    cp -R "$root/solutions/$s" "$class/eve/"
done
cp -R "$root/grader/tests/bad-kernels/exit-early/01-naive" "$class/cat/"
cp -R "$root/labs/05-padding" "$class/cat/"
sed 's|^    float sum = 0.0f;$|    float sum = 0.0f;\n    if (n >= 64) { volatile int spin = 1; while (spin) { } }|' \
    "$root/solutions/05-padding/matmul.cu" > "$class/dan/05-padding/matmul.cu"
grep -q 'volatile int spin' "$class/dan/05-padding/matmul.cu" || fail "could not make dan's hanging kernel"
cp "$root/grader/tests/bad-kernels/modifies-input/01-naive/matmul.cu" "$class/eve/01-naive/matmul.cu"

# Each stage graded alone would take as long: LAB is not set, so the
# stages with no folder (02, 03, 04...) score 0 for everyone alike.
# Short time limits: dan's hang then costs seconds.
GRADE_TIMEOUT_SCALE=0.3 make --no-print-directory -C "$root" grade-all SUBMISSIONS="$class" GRADE_ALL_OUT="$out" JOBS=2 \
    > "$base/ranking.log" 2>&1
status=$?
[ $status -eq 0 ] || fail "grade-all exited with status $status (see $base/ranking.log)"

book="$out/gradebook.csv"
# stage_points ID STAGE: the student's points for a stage, from the gradebook.
stage_points() {
    awk -F, -v id="$1" -v stage="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == id { print $col[stage] }' "$book"
}
total_of() { awk -F, -v id="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total") t = i; next }
        $1 == id { print $t }' "$book"; }
full01=$(score max "$(points_table 01-naive)")
full05=$(score max "$(points_table 05-padding)")

[ -f "$book" ] || { fail "no gradebook (see $base/ranking.log)"; echo "class ranking: $failures failure(s)"; exit 1; }
a1=$(stage_points ana 01-naive) a5=$(stage_points ana 05-padding)
[ "$a1" = "$full01" ] && [ "$a5" = "$full05" ] && echo "ok   ana (right kernels): $a1/$full01 and $a5/$full05" ||
    fail "ana: $a1/$full01, $a5/$full05 for right kernels"
b1=$(stage_points ben 01-naive) b5=$(stage_points ben 05-padding)
[ "$b1" = 0 ] && [ "$b5" = 0 ] && echo "ok   ben (skeletons): 0 and 0" || fail "ben: $b1 and $b5 for the skeletons"
c1=$(stage_points cat 01-naive)
[ "$c1" = 0 ] && echo "ok   cat (exit(0) in matmul): 0 for stage 01" || fail "cat: $c1 for a matmul that exits"
d1=$(stage_points dan 01-naive) d5=$(stage_points dan 05-padding)
if [ "$d1" = "$full01" ] && [ "$d5" -gt 0 ] && [ "$d5" -lt "$full05" ]; then
    echo "ok   dan (stage 05 hangs from n=64): stage 01 full, stage 05 $d5/$full05 (its small sizes kept)"
else
    fail "dan: stage 01 $d1/$full01, stage 05 $d5/$full05"
fi
e1=$(stage_points eve 01-naive) e5=$(stage_points eve 05-padding)
if [ "$e1" -gt 0 ] && [ "$e1" -lt "$full01" ] && [ "$e5" = "$full05" ]; then
    echo "ok   eve (changes B in place): stage 01 $e1/$full01, stage 05 full"
else
    fail "eve: stage 01 $e1/$full01, stage 05 $e5/$full05"
fi
# The ranking: ana above dan and eve, who are above ben and cat.
ta=$(total_of ana) tb=$(total_of ben) tc=$(total_of cat) td=$(total_of dan) te=$(total_of eve)
if [ "$ta" -gt "$td" ] && [ "$ta" -gt "$te" ] && [ "$td" -gt "$tb" ] && [ "$te" -gt "$tb" ] &&
        [ "$td" -gt "$tc" ] && [ "$te" -gt "$tc" ]; then
    echo "ok   ranking: ana $ta > dan $td, eve $te > ben $tb, cat $tc"
else
    fail "ranking: ana $ta, ben $tb, cat $tc, dan $td, eve $te"
fi

# One hang, once: dan's stage 05 waited out one time limit; its later
# runs failed at once, saying why.
dlog="$out/dan/grade.log"
hangs=$(grep -c 'no result after' "$out/dan/results.json" 2>/dev/null)
skipped=$(grep -c 'not run: an earlier test of this stage hung' "$out/dan/results.json" 2>/dev/null)
if [ "${hangs:-0}" -eq 1 ] && [ "${skipped:-0}" -ge 1 ] && ! grep -q 'no result after' <(grep -v '05-padding' "$out/dan/results.json"); then
    echo "ok   dan's hang: $hangs test(s) waited out its time limit, $skipped not started, all in 05-padding"
else
    fail "dan's hang: $hangs tests timed out, $skipped skipped (see $dlog)"
fi

echo "class ranking: $((SECONDS - start))s"
[ $failures -eq 0 ]
