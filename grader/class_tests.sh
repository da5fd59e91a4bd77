#!/usr/bin/env bash
# The class's tests: for each test of a grade-all run, how many of the
# students graded lost points on it, and the reason most of them were
# given, so an instructor sees which part of a lesson did not land.
#
#   grader/class_tests.sh OUT_CSV ALL_TSV...     (grade_all.sh runs it)
#
# Each ALL_TSV is one graded student's all.tsv (stage, test, earned, max,
# message).  A reason is the message's first line with its numbers made
# '#', so one mistake met at other sizes, seeds and values counts once.
# Writes OUT_CSV (a row a test, in the points tables' order) and prints the
# tests most students lost, at most three, on one line.
set -euo pipefail
. "$(dirname "$0")/../common/c_numbers.sh"   # C's numbers, whatever the locale
out=$1
shift
rm -f "$out"   # never an earlier run's table beside this run's gradebook
[ $# -gt 0 ] || exit 0
awk -F'\t' -v csv_out="$out.tmp" '
    function csv(s) {
        if (s ~ /[",]/ || s ~ /^[ \t]/ || s ~ /[ \t]$/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" }
        return s
    }
    # The message with each number that stands alone made "#": a size, a
    # seed, a value, a count.  A number that is part of a name stays
    # (Q3, float4, sm_90, 01-naive, 2x2, a 32-way conflict).
    function reason(m,    done, before, number) {
        sub(/\\n.*/, "", m)      # the first line: all.tsv writes a line break as \n
        gsub(/\\"/, "\"", m)      # and a quote as \"
        done = ""
        while (match(m, /-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/)) {
            before = substr(m, 1, RSTART - 1)
            number = substr(m, RSTART, RLENGTH)
            m = substr(m, RSTART + RLENGTH)
            if (before ~ /[A-Za-z_]$/ || m ~ /^[A-Za-z_-]/) done = done before number
            else done = done before "#"
        }
        return done m
    }
    NF >= 4 {
        key = $1 SUBSEP $2
        if (!(key in points)) { order[++tests] = key; points[key] = $4 }
        students[key]++
        if ($3 + 0 < $4 + 0) {
            lost[key]++
            r = reason($5)
            if (++given[key, r] > most[key]) { most[key] = given[key, r]; why[key] = r }
        }
    }
    END {
        print "stage,test,points,students,lost_by,most_given_reason,students_given_it" > csv_out
        for (i = 1; i <= tests; i++) {
            k = order[i]
            split(k, name, SUBSEP)
            printf "%s,%s,%s,%d,%d,%s,%d\n", csv(name[1]), csv(name[2]), points[k], students[k], lost[k] + 0,
                csv(why[k]), most[k] + 0 > csv_out
            # The three lost by most students, the earlier test first on a tie.
            for (j = 1; j <= 3; j++)
                if (lost[k] + 0 > 0 && (top[j] == "" || lost[k] > lost[top[j]])) {
                    for (m = 3; m > j; m--) top[m] = top[m - 1]
                    top[j] = k
                    break
                }
        }
        line = ""
        for (j = 1; j <= 3 && top[j] != ""; j++) {
            split(top[j], name, SUBSEP)
            line = line (j > 1 ? ", " : "") name[1] " " name[2] " (" lost[top[j]] " of " students[top[j]] ")"
        }
        print line == "" ? "no test lost points" : "lost by most students: " line
    }' "$@"
mv "$out.tmp" "$out"
