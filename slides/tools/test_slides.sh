#!/usr/bin/env bash
# `make test-slides`: every deck builds, from the kit's own files, into a
# PDF with its pages.  Each deck (slides/NN-name.md) must have a solution to
# take its code from, and each solution a deck; each PDF must have at least
# MIN_PAGES pages and show what the build fills in: the stage's kernel, the
# simulator's counts, the GPU report (or the frame saying there is none) and
# the questions with their answers.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/tests/slides
min_pages=${MIN_PAGES:-12}
failures=0
. "$root/common/tests/lib.sh"   # fail
cd "$root"

rm -rf "$out"
mkdir -p "$(dirname "$out")"  # the log goes beside the decks' folder
start=$SECONDS
if ! SLIDES_OUT=$out slides/tools/build.sh > "$out.log" 2>&1; then
    cat "$out.log"
    echo "FAIL slides/tools/build.sh"
    exit 1
fi
echo "ok   every deck built ($((SECONDS - start)) s)"

for d in solutions/[0-9][0-9]-*/; do
    s=$(basename "$d")
    [ -f "slides/$s.md" ] || fail "$s has a solution but no deck (slides/$s.md)"
done
for deck in slides/[0-9][0-9]-*.md; do
    s=$(basename "$deck" .md)
    pdf=$out/$s.pdf
    [ -f "$pdf" ] || { fail "$s: no $pdf (no solutions/$s?)"; continue; }
    pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
    [ "${pages:-0}" -ge "$min_pages" ] || fail "$s: $pages pages, fewer than $min_pages"
    md=$out/work/$s/deck.md
    grep -n -E '^@@[a-z]|\{\{' "$md" > /dev/null && fail "$s: a directive was left in $md"
    text=$(pdftotext -layout "$pdf" - 2>/dev/null)
    # The kernel's name is taken from the solution, so it proves the code was.
    kernel=$(grep -o '[a-z_0-9]*\(<[^>]*>\)\{0,1\}<<<' "solutions/$s/matmul.cu" | head -n 1 | sed 's/<.*//')
    missing=
    [ -n "$kernel" ] && ! grep -q "$kernel" <<< "$text" && missing+=" the kernel ($kernel)"
    grep -q 'What the simulator counts' <<< "$text" || missing+=" the simulator's counts"
    if ls reports/*/timings.tsv > /dev/null 2>&1; then
        grep -q 'Measured on' <<< "$text" || missing+=" the GPU report"
    else
        grep -q 'No GPU timing report' <<< "$text" || missing+=" the no-GPU-report frame"
    fi
    grep -q 'Questions for the class' <<< "$text" || missing+=" the questions"
    grep -q 'Answers' <<< "$text" || missing+=" the answers"
    [ -z "$missing" ] && echo "ok   $s: $pages pages" || fail "$s ($pages pages) lacks:$missing"
done
[ $failures = 0 ] && echo "test-slides: every deck built and checked ($((SECONDS - start)) s)" && exit 0
echo "test-slides: $failures failure(s); the decks are in $out"
exit 1
