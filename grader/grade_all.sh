#!/usr/bin/env bash
# Grades a class: every subfolder of SUBMISSIONS is one student (the folder's
# name is the student's id), each graded by grader/grade.sh into a folder of
# its own, several at a time.
#
#   grader/grade_all.sh      (called by `make grade-all`; settings come from the environment)
#     SUBMISSIONS    folder of student folders, each shaped like labs/ (required)
#     LAB            grade only this stage, e.g. 01-naive
#     BACKEND        gpu | sim (default: gpu when a GPU and nvcc are there, else sim)
#     JOBS           students graded at once (default: CPU cores on sim, GPUs on gpu)
#     FORCE=1        regrade students already graded
#     GRADE_ALL_OUT  where everything goes (default: build/grade-all)
#     GRADE_ALL_TIMEOUT  seconds one student may take in all (default: 1800)
#     GRADE_SEED, GRADE_TIMEOUT_SCALE, GRADE_ANSWER_KEYS: passed on to the grader
#     GRADE_ALL_SLICE=k/N  grade only every N-th student from the k-th (0-based),
#                    and write no gradebook: one task of several, on a cluster
#                    (grader/slurm/), all writing into the same GRADE_ALL_OUT
#     GRADE_ALL_MERGE=1  grade nobody: write the gradebook from the students'
#                    results already in GRADE_ALL_OUT, after the slices
#
# Writes GRADE_ALL_OUT/<id>/results.json (Gradescope's format), <id>/grade.log
# (what grade.sh printed), <id>/all.tsv, and GRADE_ALL_OUT/gradebook.csv:
# student, one subtotal per stage, total, max, then what the grade was made
# with (graded_on, compiler, kit, seed: grader/provenance.sh), and the
# stages a kit limit left ungraded on the simulator (needs_gpu); one row per
# student, by id.
#
# The kit is checked once before anyone is graded (grader/kit_check.sh): if
# it cannot grade here, nobody is graded and the script exits 2.  A kit
# error met while grading stops the rest of the class; the students it left
# ungraded have "not graded" as their total, never a zero.
#
# A student is skipped when already graded with the same settings and
# nothing in their folder changed since (FORCE=1 regrades).  A student whose
# grading fails (the grader crashed, or ran past GRADE_ALL_TIMEOUT) gets a
# row of zeros and a note at the end of their grade.log; the others go on,
# and the script exits 1 at the end.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/lib.sh"
subs=${SUBMISSIONS:-}
out=${GRADE_ALL_OUT:-$root/build/grade-all}
suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
only=${LAB:-}
force=${FORCE:-}
per_student_timeout=${GRADE_ALL_TIMEOUT:-1800}
slice=${GRADE_ALL_SLICE:-}
merge=${GRADE_ALL_MERGE:-}
case "$merge" in ""|0) merge= ;; *) merge=1 ;; esac

me=grade-all   # die's name for this script (grader/lib.sh)
[ -n "$subs" ] || die "SUBMISSIONS is not set (make grade-all SUBMISSIONS=dir)"
[ -d "$subs" ] || die "SUBMISSIONS=$subs is not a folder"
subs=$(cd "$subs" && pwd)
[[ $per_student_timeout =~ ^[1-9][0-9]*$ ]] || die "GRADE_ALL_TIMEOUT=$per_student_timeout is not a whole number of seconds"
case "$force" in ""|0) force= ;; *) force=1 ;; esac
if [ -n "$slice" ]; then
    [[ $slice =~ ^([0-9]+)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
        die "GRADE_ALL_SLICE=$slice: expected k/N with 0 <= k < N"
    [ -z "$merge" ] || die "GRADE_ALL_SLICE and GRADE_ALL_MERGE do not go together"
fi

# The backend, as common/backend.mk decides it when make did not say.
backend=${BACKEND:-$(detect_backend)}
gpu_count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
case "$backend" in gpu|sim) ;; *) die "BACKEND=$backend: choose gpu or sim" ;; esac
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
if [ -n "${JOBS:-}" ]; then
    [[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "JOBS=$JOBS is not a positive whole number"
    jobs=$JOBS
elif [ "$backend" = gpu ]; then
    jobs=$((gpu_count > 0 ? gpu_count : 1))     # one student per GPU
else
    jobs=$cpus
fi

# The stages graded, in order (one points table each).
all_stages=$(kit_stages)
if [ -n "$only" ]; then
    echo "$all_stages" | grep -qx -- "$only" || die "LAB=$only is not a stage; stages: $(echo $all_stages)"
    stages=$only
else
    stages=$(echo $all_stages)
fi
# The points tables of the stages graded.
max_points=$(score max $(stage_tables $stages))
# What a grade depends on besides the student's files: a change regrades.
settings="LAB=$only BACKEND=$backend GRADE_SEED=${GRADE_SEED:-} GRADE_ANSWER_KEYS=${GRADE_ANSWER_KEYS:-}"

# The students: subfolders, by id (bytewise order); files and dot-folders
# are not students.
# An archive is named, though: it is most likely a student's work as the
# course's site handed it out, and skipping it silently would leave that
# student out of the gradebook.  (The grader does not unpack it: what is in
# a student's archive, and where it would land, is the student's choice.)
ids=() archives=()
for path in "$subs"/*; do
    [ -f "$path" ] && is_archive "$path" && archives+=("${path##*/}")
    [ -d "$path" ] || continue
    id=${path##*/}
    case "$id" in
        *$'\n'*|*$'\r'*) echo "grade-all: skipping a folder whose name holds a line break: $(printf '%q' "$id")" >&2; continue ;;
    esac
    ids+=("$id")
done
if [ ${#archives[@]} -gt 0 ]; then
    archive_note="${#archives[@]} archive(s) in $subs, not graded: ${archives[*]:0:5}$([ ${#archives[@]} -gt 5 ] && echo ' ...'): each student is a folder; unpack each archive into a folder named for its student (mkdir alice && unzip alice.zip -d alice), then run this again"
    [ ${#ids[@]} -gt 0 ] || die "no student folders in $subs; $archive_note"
    echo "grade-all: warning: $archive_note" >&2
fi
[ ${#ids[@]} -gt 0 ] || die "no student folders in $subs"
mapfile -d '' ids < <(printf '%s\0' "${ids[@]}" | LC_ALL=C sort -z)
# A slice: every N-th student of the sorted list, so slices are disjoint,
# cover the class, and hold the same number of students give or take one.
if [ -n "$slice" ]; then
    k=${slice%/*} n_slices=${slice#*/} mine=()
    for i in "${!ids[@]}"; do
        [ $((i % n_slices)) -eq "$k" ] && mine+=("${ids[$i]}")
    done
    [ ${#mine[@]} -gt 0 ] || { echo "grade-all: slice $slice holds no student (${#ids[@]} in all)"; exit 0; }
    ids=("${mine[@]}")
fi
total=${#ids[@]}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
# Each student's build runs make in a folder under it, and make splits
# paths at their spaces: every student would lose the kernel points.
[[ $out != *[[:space:]]* ]] || die "GRADE_ALL_OUT=$out has a space in its path, where make cannot build: choose a folder without spaces"
# Each student's programs are built and run under it.
programs_can_run_in "$out" GRADE_ALL_OUT

# The shared pieces (grade_suite, build/<backend>/common/*) are built here,
# once, before any student: parallel builds must never race on them.  The
# lock keeps grade-alls started together (the slices of a cluster job) from
# building them at the same time; the first builds, the others find them.
prepare() {
    make --no-print-directory -C "$root" grade-prepare BACKEND="$backend"
}
prepare_log="$out/prepare${slice:+-${slice%/*}}.log"
if [ -z "$merge" ]; then
    mkdir -p "$root/build"
    if command -v flock >/dev/null; then
        ( flock 9 && prepare ) 9> "$root/build/.grade-prepare.lock" > "$prepare_log" 2>&1
    else
        prepare > "$prepare_log" 2>&1
    fi || kit_error "the grader's shared programs do not build; nobody was graded" \
        "$(grep -m 1 -E ': (fatal )?error:|No rule to make target' "$prepare_log")" "log: $prepare_log"
    [ -x "$suite" ] || die "$suite is missing (run through make grade-all)"
    # The kit itself, once for the class: a kit that cannot grade grades nobody.
    GRADE_SUITE="$suite" "$root/grader/kit_check.sh" "$backend" ||
        { echo "grade-all: nobody was graded; the gradebook was not written" >&2; exit 2; }
fi

# A student's own folder under $out, and where grade.sh builds for them:
# make cannot take paths with spaces or "=", so odd ids build elsewhere.
student_dir() { printf '%s/%s' "$out" "$1"; }
work_dir() {
    if [[ $1 =~ ^[A-Za-z0-9._@+-]+$ ]]; then
        printf '%s/%s/work' "$out" "$1"
    else
        printf '%s/.work/id-%s' "$out" "$(printf '%s' "$1" | cksum | cut -d' ' -f1)"
    fi
}

# Already graded: a good grade with today's settings, and nothing in the
# student's folder (files or folders: a deletion counts) newer than it.
already_graded() {
    local d
    d=$(student_dir "$1")
    [ -f "$d/results.json" ] && [ -f "$d/all.tsv" ] && [ "$(cat "$d/.status" 2>/dev/null)" = ok ] &&
        [ "$(cat "$d/.settings" 2>/dev/null)" = "$settings" ] &&
        [ -z "$(find -L "$subs/$1" -newer "$d/results.json" -print -quit 2>/dev/null)" ]
}

# got/max of a student, from their all.tsv.
score_of() {
    local got max
    read -r got max < <(score sum "$(student_dir "$1")/all.tsv" 2>/dev/null) && printf '%d/%d' "$got" "$max"
}

# grade_one INDEX SLOT: grades one student (run in the background).
grade_one() {
    local id=${ids[$1]} slot=$2 d work rc status note
    d=$(student_dir "$id")
    work=$(work_dir "$id")
    rm -rf "$work" "$d/results.json" "$d/all.tsv" "$d/.status"
    mkdir -p "$d" "$work"
    printf '%s\n' "$settings" > "$d/.settings"
    : > "$d/.started"     # the grade holds the files as they were now
    local env=(SUBMISSION="$subs/$id" LAB="$only" BACKEND="$backend" GRADE_OUT="$work" GRADE_SUITE="$suite"
        GRADE_KIT_CHECKED=1)
    if [ "$backend" = gpu ] && [ ${#gpus[@]} -gt 0 ]; then
        env+=(CUDA_VISIBLE_DEVICES="${gpus[$((slot % ${#gpus[@]}))]}")
    fi
    [ -n "$sim_threads" ] && env+=(SIM_THREADS="$sim_threads")
    # timeout runs grade.sh in a process group of its own and, on time or
    # on a signal, ends the whole group.
    env "${env[@]}" timeout -k 10 "$per_student_timeout" "$root/grader/grade.sh" > "$d/grade.log" 2>&1 < /dev/null &
    echo $! > "$d/.pid"
    wait $!
    rc=$?
    rm -f "$d/.pid"
    if [ $rc -eq 0 ] && [ -s "$work/all.tsv" ] && [ -f "$work/results.json" ] && grep -q '^Score: ' "$d/grade.log"; then
        cp "$work/all.tsv" "$d/all.tsv"
        cp "$work/results.json" "$d/results.json"
        cp "$work/provenance.tsv" "$d/provenance.tsv" 2>/dev/null
        status=ok
    elif [ $rc -eq 2 ] && grep -q '^kit error: ' "$d/grade.log"; then
        # No grade at all, not a zero: the kit failed, not the student.
        rm -f "$d/results.json" "$d/all.tsv"
        echo "kit-error" > "$d/.status"
        find "$work" -mindepth 2 -maxdepth 2 -type d \( -name build -o -name 'build-*' \) -exec rm -rf {} + 2>/dev/null
        rm -f "$d/.started"
        return
    else
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            note="grading took longer than GRADE_ALL_TIMEOUT=${per_student_timeout}s and was stopped"
        elif [ $rc -ne 0 ]; then
            note="the grader exited with status $rc"
        else
            note="the grader left no results"
        fi
        {
            echo
            echo "grade-all: grading $id FAILED: $note."
            echo "grade-all: $id gets 0 for every stage graded ($stages) until graded again; this is the grader's failure, not necessarily the student's."
        } >> "$d/grade.log"
        score unscored -v why="grading failed: $note" $(stage_tables $stages) > "$d/all.tsv"
        score total -v json_out="$d/results.json" -v output="Grading failed: $note (see grade.log)." \
            "$d/all.tsv" > /dev/null
        status=failed
    fi
    touch -r "$d/.started" "$d/results.json"
    rm -f "$d/.started"
    # Keep the logs, not the programs built from the student's file.
    find "$work" -mindepth 2 -maxdepth 2 -type d \( -name build -o -name 'build-*' \) -exec rm -rf {} + 2>/dev/null
    echo "$status" > "$d/.status"
}

fmt_duration() {
    local s=$1
    if [ "$s" -lt 60 ]; then printf '%ds' "$s"
    elif [ "$s" -lt 3600 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60))
    else printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60)); fi
}
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

failed=()
not_graded=()   # students a kit error left without a grade
kit_broken=
graded=0
start_ms=$(now_ms)
declare -A ungraded=()  # the merge: students with no grade of today's settings
if [ -n "$merge" ]; then
    # Nobody is graded here: each student's grade is what a slice left, if
    # it was made with today's settings (a row of zeros when grading failed).
    for id in "${ids[@]}"; do
        d=$(student_dir "$id")
        status=$(cat "$d/.status" 2>/dev/null)
        if [ "$(cat "$d/.settings" 2>/dev/null)" != "$settings" ] || [ ! -f "$d/all.tsv" ] ||
                { [ "$status" != ok ] && [ "$status" != failed ]; }; then
            ungraded[$id]=1
        elif [ "$status" = failed ]; then
            failed+=("$id")
        fi
    done
else
    # Students to grade, and those already graded.
    todo=()
    done_count=0
    skipped=0
    for i in "${!ids[@]}"; do
        id=${ids[$i]}
        if [ -z "$force" ] && already_graded "$id"; then
            done_count=$((done_count + 1)); skipped=$((skipped + 1))
            echo "[$done_count/$total] $id: $(score_of "$id") (already graded; FORCE=1 regrades)"
        else
            todo+=("$i")
        fi
    done

    gpus=()
    if [ "$backend" = gpu ]; then
        if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then IFS=, read -r -a gpus <<< "$CUDA_VISIBLE_DEVICES"
        else for ((g = 0; g < gpu_count; g++)); do gpus+=("$g"); done; fi
    fi
    [ ${#todo[@]} -gt 0 ] &&
        echo "grade-all: grading ${#todo[@]} of $total students, $jobs at a time ($backend backend${only:+, LAB=$only})"

    declare -A running=()   # pid of a grade_one -> index of its student
    declare -A slot_of=()   # pid -> its slot (a GPU, on the gpu backend)
    free_slots=()
    for ((s = jobs - 1; s >= 0; s--)); do free_slots+=("$s"); done
    sim_threads=

    declare -A started=()   # index of every student whose grading began, -> when (ms)
    durations=()            # how long each student graded so far took (ms)
    start_job() {
        local i=$1 slot=${free_slots[-1]}
        started[$i]=$(now_ms)
        unset 'free_slots[-1]'
        grade_one "$i" "$slot" &
        running[$!]=$i
        slot_of[$!]=$slot
    }

    have_wait_p=0
    if [ "${BASH_VERSINFO[0]}" -gt 5 ] || { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -ge 1 ]; }; then
        have_wait_p=1
    fi
    # Waits for one job to end and reports it.
    finish_job() {
        local pid=
        if [ $have_wait_p = 1 ]; then
            wait -n -p pid "${!running[@]}"
        else
            while [ -z "$pid" ]; do
                for p in "${!running[@]}"; do
                    kill -0 "$p" 2>/dev/null || { pid=$p; wait "$p"; break; }
                done
                [ -n "$pid" ] || sleep 0.3
            done
        fi
        [ -n "$pid" ] && [ -n "${running[$pid]+x}" ] || return 0
        local i=${running[$pid]} id note=
        id=${ids[$i]}
        free_slots+=("${slot_of[$pid]}")
        unset "running[$pid]" "slot_of[$pid]"
        done_count=$((done_count + 1)); graded=$((graded + 1))
        if [ "$(cat "$(student_dir "$id")/.status" 2>/dev/null)" = kit-error ]; then
            kit_broken=1
            not_graded+=("$id")
            graded=$((graded - 1))
            echo "[$done_count/$total] $id: NOT GRADED: kit error (see $(student_dir "$id")/grade.log); grading stops"
            # What the kit could not do, and how to mend it, from that log.
            sed -n '/^kit error: /,/^  No score was given/p' "$(student_dir "$id")/grade.log" | grep -v '^  No score was given'
            return 0
        elif [ "$(cat "$(student_dir "$id")/.status" 2>/dev/null)" != ok ]; then
            failed+=("$id")
            note=", grading FAILED: see $(student_dir "$id")/grade.log"
        fi
        durations+=($(( $(now_ms) - ${started[$i]} )))
        echo "[$done_count/$total] $id: $(score_of "$id")$note (ETA $(fmt_duration "$(eta_seconds)"))"
    }

    # Time left: the students not yet finished, $jobs at a time, each taking
    # the median time of those graded so far.  The median, not the mean:
    # a student whose kernel hangs costs a time limit per hanging stage and
    # would otherwise make every later estimate too long.
    eta_seconds() {
        local left=$((${#todo[@]} - graded)) median
        median=$(printf '%s\n' "${durations[@]}" | sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
        echo $(( median * ((left + jobs - 1) / jobs) / 1000 ))
    }

    # Ctrl-C or a kill: stop every grading under way (each timeout ends its
    # group), then leave.
    stop_all() {
        local f
        trap - INT TERM
        echo "grade-all: stopped; the students under way are left ungraded" >&2
        for i in "${running[@]}"; do
            f="$(student_dir "${ids[$i]}")/.pid"
            [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
        done
        wait
        exit 130
    }
    trap stop_all INT TERM

    for n in "${!todo[@]}"; do
        [ -z "$kit_broken" ] || break
        start_job "${todo[$n]}"
        # The first student alone when several run at once: whatever its builds
        # share with the others exists before they start.
        if [ "$n" = 0 ] && [ "$jobs" -gt 1 ] && [ ${#todo[@]} -gt 1 ]; then
            finish_job
            # The simulator uses every core for one student; share them out.
            if [ "$backend" = sim ] && [ -z "${SIM_THREADS:-}" ]; then
                sim_threads=$((cpus / jobs > 0 ? cpus / jobs : 1))
            fi
        fi
        while [ ${#running[@]} -ge "$jobs" ]; do finish_job; done
    done
    while [ ${#running[@]} -gt 0 ]; do finish_job; done
    trap - INT TERM
    # After a kit error, those never started stay ungraded (not zero).
    if [ -n "$kit_broken" ]; then
        for i in "${todo[@]}"; do
            [ -n "${started[$i]+x}" ] && continue
            not_graded+=("${ids[$i]}")
        done
    fi
fi

# A slice leaves the gradebook to the merge.
if [ -n "$slice" ] && [ -n "$kit_broken" ]; then
    echo "grade-all: slice $slice: a kit error stopped the grading; not graded: ${not_graded[*]}" >&2
    exit 2
fi
if [ -n "$slice" ]; then
    echo "grade-all: slice $slice: $total students: $graded graded, $skipped already graded, ${#failed[@]} could not be graded; $(fmt_duration $(( ($(now_ms) - start_ms) / 1000 )))"
    [ ${#failed[@]} -eq 0 ] || { echo "grade-all: grading failed for: ${failed[*]} (each has a row of zeros; see their grade.log)" >&2; exit 1; }
    exit 0
fi

# The gradebook, from each student's all.tsv.
csv() {
    local s=$1
    if [[ $s == *[,\"$'\n'$'\r']* || $s == [[:space:]]* || $s == *[[:space:]] ]]; then
        s=${s//\"/\"\"}
        s="\"$s\""
    fi
    printf '%s' "$s"
}
book="$out/gradebook.csv"
# A student's grade is "not graded" (empty cells, never a zero) when no
# grade of today's settings exists: a kit error stopped the class, or the
# grading was interrupted.  The last columns say what each grade was made
# with (commas left out, so every row splits the same way).
declare -A no_grade=()
graded_tsvs=()   # the students with a grade: the class's tests come from them
for id in ${not_graded[@]+"${not_graded[@]}"}; do no_grade[$id]=1; done
for id in "${!ungraded[@]}"; do no_grade[$id]=1; done
{
    printf 'student'
    for s in $stages; do printf ',%s' "$(csv "$s")"; done
    printf ',total,max,graded_on,compiler,kit,seed,needs_gpu\n'
    for id in "${ids[@]}"; do
        printf '%s' "$(csv "$id")"
        d=$(student_dir "$id")
        if [ -n "${no_grade[$id]+x}" ] || [ ! -f "$d/all.tsv" ]; then
            for s in $stages; do printf ','; done
            printf ',not graded,%d,,,,,\n' "$max_points"
            continue
        fi
        score gradebook -v stages="$stages" -v prov="$d/provenance.tsv" "$d/all.tsv"
        graded_tsvs+=("$d/all.tsv")
    done
} > "$book.tmp" && mv "$book.tmp" "$book"
# The class's tests, from the same grades: how many students lost each,
# and the reason most of them were given (score.awk's class mode).  Never
# an earlier run's table beside this run's gradebook.
rm -f "$out/tests.csv"
class_line=
[ ${#graded_tsvs[@]} -eq 0 ] || class_line=$(score class -v csv_out="$out/tests.csv" "${graded_tsvs[@]}")

took=$(( ($(now_ms) - start_ms) / 1000 ))
if [ -n "$merge" ]; then
    echo "grade-all: merged $total students: $((total - ${#ungraded[@]})) with a grade, ${#failed[@]} could not be graded, ${#ungraded[@]} not graded"
else
    echo "grade-all: $total students: $graded graded, $skipped already graded, ${#failed[@]} could not be graded; $(fmt_duration "$took")"
fi
echo "gradebook: $book"
[ -f "$out/tests.csv" ] && echo "tests: $out/tests.csv, each test's students who lost it and their most common reason; $class_line"
status=0
# Said again at the end, where it is read: those students are not in it.
[ -z "${archive_note:-}" ] || echo "grade-all: warning: $archive_note" >&2
if [ ${#failed[@]} -gt 0 ]; then
    echo "grade-all: grading failed for: ${failed[*]} (each has a row of zeros; see their grade.log)" >&2
    status=1
fi
if [ ${#not_graded[@]} -gt 0 ]; then
    echo "grade-all: a kit error stopped the grading; not graded: ${not_graded[*]} (\"not graded\" in the gradebook; fix the kit and run again)" >&2
    exit 2
fi
if [ ${#ungraded[@]} -gt 0 ]; then
    mapfile -d '' missing < <(printf '%s\0' "${!ungraded[@]}" | LC_ALL=C sort -z)
    echo "grade-all: no grade with these settings ($settings) for: ${missing[*]} (\"not graded\" in the gradebook; grade them again)" >&2
    status=1
fi
exit $status
