#!/usr/bin/env bash
# The Gradescope bundle end to end, without Gradescope: `make gradescope`,
# the zip unpacked as Gradescope does (/autograder/source, here a fake
# root), run_autograder on the solutions (full marks) and, at the same time
# in a second such root, on an upload of the labs/ folder itself with one
# stage missing and another that hangs (each loses its own points, no
# other stage any); then a bundle for one stage (`make gradescope LAB=01`)
# with that stage's files uploaded on their own, a submission that tampers
# with the kit, the bundle in a folder other users cannot reach (a kit
# error, no score), and a deadline already past.  setup.sh is not run: the
# packages are already here.
#
#   grader/tests/gradescope_bundle.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # score, points_table
# Stage 01's points, and those of its kernel alone (a submission without
# answers.txt loses the quiz's).
full01=$(score max "$(points_table 01-naive)")
kernel01=$(score kernel_max "$(points_table 01-naive)")
fake="$root/build/test-grading/gradescope/autograder"
zip="$root/build/gradescope/autograder.zip"
failures=0
. "$root/common/tests/lib.sh"   # fail, run_with_progress

# json_shape FILE: "score max_score tests" of a results.json if it is valid
# JSON (a whole parser: objects, arrays, strings with escapes, numbers,
# literals), else "invalid at byte N".
json_shape() {
    awk 'BEGIN { RS = "\001"; for (i = 1; i < 32; i++) ctrl = ctrl sprintf("%c", i) }
        { s = s $0 }
        function ws() { while (pos <= len && index(" \t\n\r", substr(s, pos, 1))) pos++ }
        function str(   c, e) {
            if (substr(s, pos, 1) != "\"") return 0
            pos++; start = pos
            while (pos <= len) {
                c = substr(s, pos, 1)
                if (c == "\"") { last_str = substr(s, start, pos - start); pos++; return 1 }
                if (c == "\\") {
                    e = substr(s, pos + 1, 1)
                    if (index("\"\\/bfnrt", e)) { pos += 2; continue }
                    if (e == "u" && substr(s, pos + 2, 4) ~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) { pos += 6; continue }
                    return 0
                }
                if (index(ctrl, c)) return 0
                pos++
            }
            return 0
        }
        function num() {
            if (!match(substr(s, pos), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) return 0
            last_num = substr(s, pos, RLENGTH); pos += RLENGTH; return 1
        }
        function value(depth,   c) {
            ws(); c = substr(s, pos, 1); kind = ""
            if (c == "{") return object(depth + 1)
            if (c == "[") return array(depth + 1)
            if (c == "\"") { kind = "string"; return str() }
            if (c ~ /[-0-9]/) { kind = "number"; return num() }
            if (substr(s, pos, 4) == "true" || substr(s, pos, 4) == "null") { pos += 4; return 1 }
            if (substr(s, pos, 5) == "false") { pos += 5; return 1 }
            return 0
        }
        function array(depth,   c, n) {
            pos++; ws(); n = 0
            if (substr(s, pos, 1) == "]") { pos++; kind = "array"; items = 0; return 1 }
            while (1) {
                if (!value(depth)) return 0
                n++; ws(); c = substr(s, pos, 1); pos++
                if (c == "]") { kind = "array"; items = n; return 1 }
                if (c != ",") return 0
            }
        }
        function object(depth,   c, key) {
            pos++; ws()
            if (substr(s, pos, 1) == "}") { pos++; kind = "object"; return 1 }
            while (1) {
                ws(); if (!str()) return 0
                key = last_str; ws()
                if (substr(s, pos, 1) != ":") return 0
                pos++
                if (!value(depth)) return 0
                if (depth == 1 && kind == "number") top[key] = last_num
                if (depth == 1 && kind == "array") top[key] = "list of " items
                ws(); c = substr(s, pos, 1); pos++
                if (c == "}") { kind = "object"; return 1 }
                if (c != ",") return 0
            }
        }
        END {
            len = length(s); pos = 1
            ok = value(0)
            if (ok && kind != "object") ok = 0
            ws()
            if (!ok || pos <= len) { print "invalid at byte " pos; exit }
            print ("score" in top ? top["score"] : "none"), ("max_score" in top ? top["max_score"] : "none"), \
                ("tests" in top ? top["tests"] : "none")
        }' "$1"
}

# Sanity of the checker itself: broken JSON must be caught.
mkdir -p "$root/build/test-grading"
printf '{"score": 1, "tests": [ {"a": "b\\x"} ]}\n' > "$root/build/test-grading/bad.json"
case "$(json_shape "$root/build/test-grading/bad.json")" in
    invalid*) ;;
    *) fail "json check: a bad escape was accepted" ;;
esac

start=$SECONDS
if ! make --no-print-directory -C "$root" gradescope > "$root/build/test-grading/gradescope-make.log" 2>&1; then
    cat "$root/build/test-grading/gradescope-make.log"; echo "FAIL make gradescope"; exit 1
fi
rm -rf "$fake"
mkdir -p "$fake/source" "$fake/submission"
unzip -q "$zip" -d "$fake/source" || { echo "FAIL unzip $zip"; exit 1; }
missing=
for f in setup.sh run_autograder Makefile tests.mk README.md grader/grade.sh grader/score.awk grader/suites/04-tiled.points.tsv grader/instructor.mk \
        grader/answers/02-shared-2x2.tsv common/build.mk common/harness.c common/sim/launch.cpp; do
    [ -f "$fake/source/$f" ] || missing+=" $f"
done
[ -x "$fake/source/run_autograder" ] && [ -x "$fake/source/setup.sh" ] || missing+=" (setup.sh and run_autograder executable)"
[ -z "$missing" ] && echo "ok   the zip holds setup.sh and run_autograder at the top, and the kit" || fail "the zip lacks:$missing"
extra=$(cd "$fake/source" && ls -d labs solutions build results.json 2>/dev/null)
[ -z "$extra" ] && echo "ok   the zip holds no labs/, solutions/ or build outputs" || fail "the zip holds: $extra"

# autograde NAME [ROOT]: runs run_autograder on ROOT/submission (ROOT:
# $fake); its log is NAME.log, its exit status NAME.status, its seconds
# NAME.took.
autograde() {
    local at=${2:-$fake} t=$SECONDS
    rm -rf "$at/results" "$fake/../$1.status" "$fake/../$1.took"
    AUTOGRADER_ROOT="$at" run_with_progress "autograder: $1" "$fake/../$1.log" bash "$at/source/run_autograder"
    echo $? > "$fake/../$1.status"
    echo $((SECONDS - t)) > "$fake/../$1.took"
}

# 1 and 2 run at once, each in an autograder of its own (as on two of
# Gradescope's machines: the second a copy of the unpacked zip, made before
# either builds anything), judged in order once both are done.
# 2. The labs/ folder itself uploaded (nested one level), with two stages
# short, in one run: 05-padding missing (its kernel saved as MatMul.cu,
# which is not graded, and named so) loses all its points; 04-tiled's
# kernel hangs from n = 64 on, which costs that stage one time limit (its
# larger runs are not started).  Every other stage keeps all its points.
# How long the run took is said, not judged: tests check behaviour.
second="$fake-2"
rm -rf "$second" && mkdir -p "$second/submission/labs" && cp -R "$fake/source" "$second/source"
cp -R "$root/solutions/." "$second/submission/labs/"
rm -rf "$second/submission/labs/05-padding"
mkdir -p "$second/submission/labs/05-padding"
cp "$root/solutions/05-padding/matmul.cu" "$second/submission/labs/05-padding/MatMul.cu"
sed 's|^    float sum = 0.0f;$|    float sum = 0.0f;\n    if (n >= 64) { volatile int spin = 1; while (spin) { } }|' \
    "$root/solutions/04-tiled/matmul.cu" > "$second/submission/labs/04-tiled/matmul.cu"
grep -q 'volatile int spin' "$second/submission/labs/04-tiled/matmul.cu" || fail "hang: could not make the hanging kernel"
tiled=$(score max "$(points_table 04-tiled)")
padding=$(score max "$(points_table 05-padding)")
# 1. The solutions, laid out like labs/: full marks.
cp -R "$root/solutions/." "$fake/submission/"
autograde solutions &
solutions_job=$!
autograde missing-and-hanging "$second" &
wait $solutions_job $!

status=$(cat "$fake/../solutions.status" 2>/dev/null || echo "none (it did not finish)")
json="$fake/results/results.json"
if [ "$status" != 0 ] || [ ! -f "$json" ]; then
    fail "solutions: run_autograder exited with $status, results.json $([ -f "$json" ] && echo there || echo missing) (see $fake/../solutions.log)"
else
    read -r score max tests <<< "$(json_shape "$json")"
    if [ "$score" = invalid ]; then
        fail "solutions: results.json is not valid JSON ($(json_shape "$json"))"
    elif [ "$score" != "$max" ] || [ "$max" = none ] || [ "${max:-0}" -le 0 ] || [[ $tests != "list of"* ]] || [ "${tests#list of }" -lt 1 ]; then
        fail "solutions: score $score, max_score $max, tests: $tests (full marks and a list of tests expected)"
    else
        echo "ok   solutions: results.json is valid JSON, score $score = max_score $max, tests: ${tests#list of } entries"
    fi
fi
full=${max:-0}

status=$(cat "$fake/../missing-and-hanging.status" 2>/dev/null || echo "none (it did not finish)")
took=$(cat "$fake/../missing-and-hanging.took" 2>/dev/null || echo 0)
json="$second/results/results.json"
# scored_tests STAGE-PATTERN: "tests short" among results.json's tests whose
# name matches (awk regex), short being those below their max_score.
scored_tests() {
    awk -v want="$1" '/"name": "/ {
            match($0, /"name": "[^"]*"/); name = substr($0, RSTART + 9, RLENGTH - 10)
            if (name !~ want) next
            match($0, /"score": [0-9]+/); s = substr($0, RSTART + 9, RLENGTH - 9)
            match($0, /"max_score": [0-9]+/); m = substr($0, RSTART + 13, RLENGTH - 13)
            n++; if (s != m) short++; got += s }
        END { print n + 0, short + 0, got + 0 }' "$json" 2>/dev/null
}
if [ ! -f "$json" ]; then
    fail "missing and hanging stages: no results.json (status $status; see $fake/../missing-and-hanging.log)"
else
    read -r score max tests <<< "$(json_shape "$json")"
    read -r others others_short _ <<< "$(scored_tests '^(0[1-36-9]|[1-9])')"
    read -r _ _ padding_got <<< "$(scored_tests '^05-padding')"
    if [ "$score" = invalid ]; then
        fail "missing and hanging stages: results.json is not valid JSON ($(json_shape "$json"))"
    elif ! [[ $score =~ ^[0-9]+$ && $max =~ ^[0-9]+$ ]]; then
        fail "missing and hanging stages: no numeric score and max_score in results.json ($score, $max)"
    elif [ "$status" = 0 ] && [ "$max" = "$full" ] && [ "$others" -gt 0 ] && [ "$others_short" = 0 ] &&
            [ "$padding_got" = 0 ] && [ "$score" -ge $((full - padding - tiled)) ] && [ "$score" -lt $((full - padding)) ] &&
            grep -q '"output": "Graded labs: .*not found (0 points): 05-padding' "$json" &&
            grep -q '05-padding has MatMul.cu, not graded: the file graded must be named matmul.cu' "$json" &&
            grep -q 'not run: an earlier test of this stage hung' "$json"; then
        echo "ok   missing and hanging stages: the nested labs/ found, $score/$max in ${took}s: 05-padding's $padding points lost and its MatMul.cu named, 04-tiled lost its larger runs after one hang, the $others tests of the other stages full"
    else
        fail "missing and hanging stages: status $status, score $score/$max (expected at least $((full - padding - tiled)) and below $((full - padding))), 05-padding scored ${padding_got:-?}, ${others_short:-?} of ${others:-?} tests of the other stages short, ${took}s (see $fake/../missing-and-hanging.log)"
    fi
fi

# 3. A bundle for one stage (an assignment per stage): `make gradescope
# LAB=01` grades that stage only, out of its own points, and takes its two
# files uploaded on their own, with no folder around them.
one="$fake-01"
rm -rf "$one" && mkdir -p "$one/source" "$one/submission"
if ! make --no-print-directory -C "$root" gradescope LAB=01 > "$root/build/test-grading/gradescope-01-make.log" 2>&1 ||
        ! unzip -q "$root/build/gradescope/autograder-01-naive.zip" -d "$one/source"; then
    fail "make gradescope LAB=01: no autograder-01-naive.zip (see $root/build/test-grading/gradescope-01-make.log)"
else
    cp "$root/solutions/01-naive/matmul.cu" "$root/solutions/01-naive/answers.txt" "$one/submission/"
    AUTOGRADER_ROOT="$one" bash "$one/source/run_autograder" > "$fake/../one-stage.log" 2>&1
    read -r score max tests <<< "$(json_shape "$one/results/results.json" 2>/dev/null)"
    if [ "$score/$max" = "$full01/$full01" ] && grep -q '"output": "Graded answers.txt and matmul.cu as 01-naive.' "$one/results/results.json"; then
        echo "ok   one stage's bundle: its matmul.cu and answers.txt uploaded without a folder, $score/$max (that stage's points only)"
    else
        fail "one stage's bundle: score $score/$max, expected $full01/$full01 and the files named (see $fake/../one-stage.log)"
    fi
fi

# 4. As root, the student's code runs as another user (nobody): a kernel
# file that tries to write into the results folder and the kit cannot, and
# is graded as usual (in the one-stage bundle, uploaded on its own).
if [ "$(id -u)" = 0 ] && id -u nobody >/dev/null 2>&1 && [ -x "$one/source/run_autograder" ]; then
    rm -rf "$one/submission"
    mkdir -p "$one/submission"
    points_before=$(cksum < "$one/source/grader/suites/01-naive.points.tsv")
    { cat "$root/solutions/01-naive/matmul.cu"
      printf '\n#include <stdio.h>\n__attribute__((constructor)) static void tamper(void)\n{\n'
      printf '    FILE *f = fopen("%s/results/tampered", "w");\n    if (f) fclose(f);\n' "$one"
      printf '    f = fopen("%s/source/grader/suites/01-naive.points.tsv", "a");\n    if (f) { fputs("extra\\t100\\tfree points\\n", f); fclose(f); }\n}\n' "$one"
    } > "$one/submission/matmul.cu"
    rm -rf "$one/results"
    json="$one/results/results.json"
    AUTOGRADER_ROOT="$one" bash "$one/source/run_autograder" > "$fake/../tamper.log" 2>&1
    read -r score max tests <<< "$(json_shape "$json" 2>/dev/null)"
    if [ -e "$one/results/tampered" ] || [ "$(cksum < "$one/source/grader/suites/01-naive.points.tsv")" != "$points_before" ]; then
        fail "tamper: the student's code wrote into the results folder or the kit"
    elif [ "$score/$max" != "$kernel01/$full01" ]; then
        fail "tamper: score $score/$max, expected $kernel01/$full01 for a right kernel without answers (see $fake/../tamper.log)"
    else
        echo "ok   tamper: the student's code ran as nobody: results folder and kit untouched, score $score/$max"
    fi
else
    echo "skip tamper: needs root and a user nobody"
fi

# 4b. The one-stage bundle unpacked inside a folder closed to other users
# (mode 700, as /root is on many machines): nobody cannot reach the kit, so
# no student can be graded there. A kit error and no results.json, never a
# zero.
if [ "$(id -u)" = 0 ] && id -u nobody >/dev/null 2>&1 && [ -x "$one/source/run_autograder" ]; then
    closed="$fake-closed"
    rm -rf "$closed" && mkdir -p "$closed/inside/submission" && chmod 700 "$closed"
    cp -R "$one/source" "$closed/inside/source"
    cp "$root/solutions/01-naive/matmul.cu" "$root/solutions/01-naive/answers.txt" "$closed/inside/submission/"
    AUTOGRADER_ROOT="$closed/inside" bash "$closed/inside/source/run_autograder" > "$fake/../closed.log" 2>&1
    status=$?
    if [ $status = 2 ] && [ ! -e "$closed/inside/results/results.json" ] &&
            grep -q "kit error: nobody, who runs the students' code, cannot reach the autograder" "$fake/../closed.log"; then
        echo "ok   a bundle in a folder closed to other users: a kit error that says so, no score written"
    else
        fail "a bundle in a folder closed to other users: status $status, results.json $([ -e "$closed/inside/results/results.json" ] && echo written || echo absent) (see $fake/../closed.log)"
    fi
    rm -rf "$closed"
else
    echo "skip a bundle in a folder closed to other users: needs root and a user nobody"
fi

# 5. Out of time: a deadline already past grades nothing, says so, and still
# writes a result (not a kit error).
GRADE_DEADLINE=$(date +%s) SUBMISSION="$root/solutions" LAB=01-naive GRADE_OUT="$fake/../deadline" \
    "$root/grader/grade.sh" > "$fake/../deadline.log" 2>&1
status=$?
if [ $status -eq 0 ] && grep -q "^Score: 0/$full01\$" "$fake/../deadline.log" &&
        grep -q 'not graded: the time for grading ran out before this stage' "$fake/../deadline/results.json"; then
    echo "ok   deadline: a stage after GRADE_DEADLINE is \"not graded\", and the result is still written"
else
    fail "deadline: status $status (see $fake/../deadline.log)"
fi

echo "gradescope bundle: $((SECONDS - start))s"
[ $failures -eq 0 ]
