# The one place a score is computed.  Every number a student, an instructor
# or Gradescope sees (the terminal summary, results.json, the gradebook, the
# kit check's verdict) comes from here, out of two inputs:
#
#   points tables  grader/suites/<stage>.points.tsv: test, points, what it checks
#                  (the stage is the file's name)
#   results        what grade_suite reported, "stage<TAB>test<TAB>pass|fail<TAB>message",
#                  messages JSON-escaped (\n, \", \\)
#
# and the scored rows it writes from them (all.tsv: stage, test, score,
# max, message).  Called as
#
#   awk -F'\t' -v mode=MODE [-v ...] -f grader/score.awk FILES...
#
#   tests      TABLES                the tests the tables give points to: "stage<TAB>test"
#   stages     TABLES                the stages, in order
#   max        TABLES                the most points they give, together
#   kernel_max TABLES                the same without the quiz's: what a kernel can
#                                    earn (a submission with no answers.txt)
#   agree      TABLES RESULTS        the tests the tables and the results disagree on,
#                                    one line each; exit 1 if any (-v subset=1: a
#                                    test the results lack is fine, Check ran a few)
#   unscored   TABLES                every test of the tables, 0 points, -v why=reason
#   stage      TABLE RESULTS         one stage scored: rows to -v scored=FILE, the
#                                    stage's lines to the terminal (-v verbose=1 every
#                                    test; -v todo=hint; -v no_kernel=why the kernel's
#                                    tests could not run)
#   sum        SCORED                "got max"
#   first_failure SCORED             "test: message" of the first test that lost points
#   total      SCORED                "Score: got/max", and Gradescope's results.json to
#                                    -v json_out=FILE (-v prov=provenance.tsv, -v output=text)
#   gradebook  SCORED                a gradebook row's cells after the student's name:
#                                    ",stage,...,total,max,graded_on,compiler,kit,seed,needs_gpu"
#                                    (needs_gpu: the stages a kit limit left ungraded, ";" between)
#                                    (-v stages="01-naive ...", -v prov=provenance.tsv)
#   class      SCORED...             a class's tests, one SCORED file a student: to
#                                    -v csv_out=FILE a row a test (stage, test, points,
#                                    students, lost_by, the reason most were given,
#                                    students given it), and one line naming the three
#                                    tests most students lost

# A string as the inside of a JSON string literal.
function json_escape(s) {
    gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "    ", s); gsub(/\r/, "", s); gsub(/\n/, "\\n", s)
    gsub(/[\001-\010\013\014\016-\037]/, "", s)
    return s
}

# A message from the results (JSON-escaped) as the terminal shows it.
function shown_text(m) {
    gsub(/\\n/, "\n", m); gsub(/\\"/, "\"", m); gsub(/\\\\/, "\\", m)
    return m
}

function is_table() { return FILENAME ~ /\.points\.tsv$/ }

function stage_of_table(   s) {
    s = FILENAME; sub(/.*\//, "", s); sub(/\.points\.tsv$/, "", s)
    return s
}

# A table's rows: comments and blank lines are not tests.
is_table() && (/^#/ || NF < 2) { next }
is_table() {
    stage = stage_of_table()
    if (!(stage in stage_seen)) { stage_seen[stage] = 1; stage_order[++stage_count] = stage }
    key = stage SUBSEP $1
    if (key in points) { printf "%s: the test \"%s\" has two rows\n", FILENAME, $1 > "/dev/stderr"; bad_table = 1 }
    if ($2 !~ /^[0-9]+$/) { printf "%s: the test \"%s\" has points \"%s\", not a whole number\n", FILENAME, $1, $2 > "/dev/stderr"; bad_table = 1 }
    points[key] = $2 + 0; test_order[++test_count] = key; what[key] = $3
    next
}

# Results (agree, stage) and scored rows (sum, total, gradebook, first_failure).
mode == "agree" { ran[$1 SUBSEP $2] = 1; ran_order[++ran_count] = $1 SUBSEP $2; next }
mode == "stage" { status[$2] = $3; message[$2] = $4; next }
mode == "class" {
    key = $1 SUBSEP $2
    if (!(key in class_points)) { class_order[++class_tests] = key; class_points[key] = $4 }
    class_students[key]++
    if ($3 < $4) {
        class_lost[key]++
        r = class_reason($5)
        if (++class_given[key, r] > class_most[key]) { class_most[key] = class_given[key, r]; class_why[key] = r }
    }
    next
}
mode == "sum" || mode == "total" || mode == "gradebook" || mode == "first_failure" {
    got += $3; max += $4; rows[++row_count] = $0
    stage_got[$1] += $3
    # A stage the simulator could not build (a kit limit, grade.sh): its
    # kernel tests count 0 here, and the grade says a GPU can grade it.
    if (index($5, "not graded on the simulator: ") && !($1 in needs_gpu)) {
        needs_gpu[$1] = 1; needs_gpu_list = needs_gpu_list (needs_gpu_list == "" ? "" : ";") $1
    }
    if (mode == "first_failure" && $3 < $4 && first == "") {
        m = $5; if (index(m, $2 ": ") == 1) m = substr(m, length($2) + 3)
        first = $2 ": " shown_text(m)
    }
    next
}

END {
    if (bad_table) exit 2
    if (mode == "tests") {
        for (i = 1; i <= test_count; i++) { split(test_order[i], k, SUBSEP); print k[1] "\t" k[2] }
    } else if (mode == "stages") {
        for (i = 1; i <= stage_count; i++) print stage_order[i]
    } else if (mode == "max" || mode == "kernel_max") {
        for (i = 1; i <= test_count; i++) {
            split(test_order[i], k, SUBSEP)
            if (mode == "max" || k[2] !~ /^quiz /) total_points += points[test_order[i]]
        }
        print total_points + 0
    } else if (mode == "agree") {
        disagree = 0
        for (i = 1; i <= ran_count; i++)
            if (!(ran_order[i] in points)) {
                split(ran_order[i], k, SUBSEP)
                printf "the suite ran \"%s\" (%s), which has no row in grader/suites/%s.points.tsv\n", k[2], k[1], k[1]
                disagree = 1
            }
        if (subset != 1)
            for (i = 1; i <= test_count; i++)
                if (!(test_order[i] in ran)) {
                    split(test_order[i], k, SUBSEP)
                    printf "grader/suites/%s.points.tsv gives points to \"%s\", which the suite does not run\n", k[1], k[2]
                    disagree = 1
                }
        exit disagree
    } else if (mode == "unscored") {
        for (i = 1; i <= test_count; i++) {
            split(test_order[i], k, SUBSEP)
            printf "%s\t%s\t0\t%d\t%s\n", k[1], k[2], points[test_order[i]], json_escape(why)
        }
    } else if (mode == "stage") {
        score_stage()
    } else if (mode == "sum") {
        print got + 0, max + 0
    } else if (mode == "first_failure") {
        print first
    } else if (mode == "total") {
        write_results_json()
    } else if (mode == "gradebook") {
        gradebook_cells()
    } else if (mode == "class") {
        write_class_tests()
    } else {
        print "score.awk: no mode \"" mode "\"" > "/dev/stderr"
        exit 2
    }
}

# One stage: each test's points come from the table alone, and a table
# test the results never reported counts as failed.  Shown: one line for
# the stage and its first failure, or with verbose=1 every test.
function score_stage(   i, k, t, s, m, sc, got_s, max_s, n, width, line, key, times, lost, last, at, first_of, text, failed_for, failures, first_failure, first_shown, shown, label) {
    got_s = 0; max_s = 0; width = 8; n = 0
    for (i = 1; i <= test_count; i++) {
        split(test_order[i], k, SUBSEP); order[++n] = k[2]; pts[k[2]] = points[test_order[i]]; stage = k[1]
        if (length(k[2]) > width) width = length(k[2])
    }
    for (i = 1; i <= n; i++) {
        t = order[i]; max_s += pts[t]
        s = (t in status) ? status[t] : "fail"
        m = (t in message) ? message[t] : "the test did not report a result"
        # A kernel that could not be built or found: its tests say why.
        if (no_kernel != "" && s == "fail" && m ~ /this build of matmul.cu does not exist/) m = json_escape(no_kernel)
        sc = (s == "pass") ? pts[t] : 0; got_s += sc
        printf "%s\t%s\t%d\t%d\t%s\n", stage, t, sc, pts[t], m > scored
        shown = shown_text(m); gsub(/\n/, "\n" sprintf("%" (width + 16) "s", ""), shown)
        line[i] = "  " sprintf("%-" width "s", t) " " sprintf("%-4s %2d/%-2d", (s == "pass" ? "OK" : "FAIL"), sc, pts[t]) "  " shown
        # Grouped by reason, the size it was seen at left out.
        key = m; sub(/^n=[0-9]+: /, "", key)
        failed_for[i] = (s == "pass") ? "" : key
        if (s != "pass") { times[key]++; lost[key] += pts[t]; last[key] = t; at[key] = i; if (!(key in first_of)) first_of[key] = t }
        if (s != "pass" && !failures++) { first_failure = t; first_shown = shown }
        sub(/^n=[0-9]+: /, "", shown); text[key] = shown
    }
    if (verbose != 1) {
        printf "  %s: %d/%d", stage, got_s, max_s
        if (failures) printf "  (%d of %d tests failed; make grade V=1 lists every test)", failures, n
        printf "\n"
        if (failures) {
            # Sixteen spaces or more (no {16,}: mawk before 2020 reads braces literally).
            gsub(/\n                 */, "\n      ", first_shown)
            # "n=1: n=1, seed 7: ..." says the size twice.
            if (index(first_shown, first_failure) == 1 && substr(first_shown, length(first_failure) + 1, 1) ~ /[:,]/)
                printf "    first failure: %s\n", first_shown
            else
                printf "    first failure: %s: %s\n", first_failure, first_shown
        }
    } else {
        # Tests that failed for one reason (no file, no build, no time, a
        # hang): the reason once, where the last of them stands.
        for (i = 1; i <= n; i++) {
            m = failed_for[i]
            if (m == "" || times[m] < 3) { print line[i]; continue }
            if (at[m] != i) continue
            label = times[m] " tests (" first_of[m] ", ..., " last[m] "):"
            printf "  %s\n  %-" width "s FAIL  0/%-2d  %s\n", label, "", lost[m], text[m]
        }
        printf "  %s: %d/%d\n", stage, got_s, max_s
    }
    if (got_s == 0 && todo != "")
        printf "  Hint: matmul.cu still has %s: start there.\n", todo
}

function read_provenance(   line, f) {
    if (prov == "") return
    while ((getline line < prov) > 0) {
        split(line, f, "\t")
        prov_key[++prov_count] = f[1]; prov_value[f[1]] = f[2]
    }
    close(prov)
}

# Gradescope's results format; extra_data keeps what the grade was made with.
function write_results_json(   i, f, sep) {
    if (needs_gpu_list != "")
        printf "Not graded here: %s (a kit limit: the simulator cannot build the file, a GPU can grade it); its kernel tests count 0 in this score\n", needs_gpu_list
    printf "Score: %d/%d\n", got, max
    if (json_out == "") return
    read_provenance()
    printf "{\n  \"score\": %d,\n  \"max_score\": %d,\n  \"visibility\": \"visible\",\n", got, max > json_out
    if (output != "") printf "  \"output\": \"%s\",\n", json_escape(output) > json_out
    printf "  \"extra_data\": {\"provenance\": {" > json_out
    sep = ""
    for (i = 1; i <= prov_count; i++) {
        printf "%s\"%s\": \"%s\"", sep, json_escape(prov_key[i]), json_escape(prov_value[prov_key[i]]) > json_out; sep = ", "
    }
    printf "}%s},\n  \"tests\": [\n", needs_gpu_list == "" ? "" : ", \"needs_gpu\": \"" needs_gpu_list "\"" > json_out
    for (i = 1; i <= row_count; i++) {
        split(rows[i], f, "\t")
        printf "    {\"name\": \"%s: %s\", \"score\": %d, \"max_score\": %d, \"output\": \"%s\", \"visibility\": \"visible\"}%s\n",
            json_escape(f[1]), json_escape(f[2]), f[3], f[4], f[5], (i < row_count ? "," : "") > json_out
    }
    printf "  ]\n}\n" > json_out
    close(json_out)
}

# Commas and quotes left out of the provenance cells, so every row splits
# the same way.
function gradebook_cells(   n, s, i, v, on, comp) {
    read_provenance()
    for (i = 1; i <= prov_count; i++) { v = prov_value[prov_key[i]]; gsub(/[,"]/, ";", v); prov_value[prov_key[i]] = v }
    n = split(stages, s, " ")
    for (i = 1; i <= n; i++) printf ",%d", stage_got[s[i]] + 0
    printf ",%d,%d", got, max
    on = prov_value["device"] == "" ? "" : prov_value["device"] " (" prov_value["backend"] ")"
    comp = prov_value["compiler"] == "" ? "" : prov_value["compiler"] "; check mode " prov_value["check compiler"]
    printf ",%s,%s,%s,%s,%s\n", on, comp, prov_value["kit"], prov_value["seed"], needs_gpu_list
}

# A reason a test was lost, as a class summary groups it: the message's
# first line with each number that stands alone made "#" (a size, a seed, a
# value, a count), so one mistake met at other sizes counts once; a number
# that is part of a name stays (Q3, float4, sm_90, 01-naive, 2x2, 32-way).
function class_reason(m,    done, before, number) {
    m = shown_text(m)
    sub(/\n.*/, "", m)
    done = ""
    while (match(m, /-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/)) {
        before = substr(m, 1, RSTART - 1)
        number = substr(m, RSTART, RLENGTH)
        m = substr(m, RSTART + RLENGTH)
        done = done before ((before ~ /[A-Za-z_]$/ || m ~ /^[A-Za-z_-]/) ? number : "#")
    }
    return done m
}

function csv_cell(s) {
    if (s ~ /[",]/ || s ~ /^[ \t]/ || s ~ /[ \t]$/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" }
    return s
}

# The class's tests, in the points tables' order, to csv_out; then the three
# tests most students lost (the earlier test first on a tie), on one line.
function write_class_tests(   i, j, m, k, name, top, line) {
    print "stage,test,points,students,lost_by,most_given_reason,students_given_it" > csv_out
    for (i = 1; i <= class_tests; i++) {
        k = class_order[i]
        split(k, name, SUBSEP)
        printf "%s,%s,%s,%d,%d,%s,%d\n", csv_cell(name[1]), csv_cell(name[2]), class_points[k], class_students[k],
            class_lost[k] + 0, csv_cell(class_why[k]), class_most[k] + 0 > csv_out
        for (j = 1; j <= 3; j++)
            if (class_lost[k] + 0 > 0 && (top[j] == "" || class_lost[k] > class_lost[top[j]])) {
                for (m = 3; m > j; m--) top[m] = top[m - 1]
                top[j] = k
                break
            }
    }
    close(csv_out)
    line = ""
    for (j = 1; j <= 3 && top[j] != ""; j++) {
        split(top[j], name, SUBSEP)
        line = line (j > 1 ? ", " : "") name[1] " " name[2] " (" class_lost[top[j]] " of " class_students[top[j]] ")"
    }
    print line == "" ? "no test lost points" : "lost by most students: " line
}
