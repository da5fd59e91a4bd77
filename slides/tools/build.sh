#!/usr/bin/env bash
# Builds the decks: each slides/NN-name.md whose stage has a solution
# (solutions/NN-name/matmul.cu) becomes build/slides/NN-name.pdf, through
# expand.sh (the kit's code, diffs, figures and reports filled in) and
# pandoc -t beamer with pdflatex.  `make slides` runs this.
#
#   slides/tools/build.sh [NN-name...]     all decks, or only those
#
#   REPORTS=dir      where the committed reports are (default: reports/)
#   SLIDES_OUT=dir   where the PDFs go (default: build/slides/)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REPORTS=$(cd "${REPORTS:-$ROOT/reports}" && pwd)
out=${SLIDES_OUT:-$ROOT/build/slides}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export ROOT REPORTS

if [ $# -gt 0 ]; then
    decks=()
    for s in "$@"; do
        [ -f "$ROOT/slides/$s.md" ] || { echo "slides: no deck slides/$s.md" >&2; exit 1; }
        decks+=("$ROOT/slides/$s.md")
    done
else
    decks=("$ROOT"/slides/[0-9][0-9]-*.md)
    # A stage with a solution but no deck yet is worth a line, not a failure.
    for d in "$ROOT"/solutions/[0-9][0-9]-*/; do
        s=$(basename "$d")
        [ -f "$ROOT/slides/$s.md" ] || echo "slides: $s has no deck yet (slides/$s.md)"
    done
fi

built=0
for deck in "${decks[@]}"; do
    [ -f "$deck" ] || continue
    stage=$(basename "$deck" .md)
    if [ ! -f "$ROOT/solutions/$stage/matmul.cu" ]; then
        echo "slides: $stage skipped: no solutions/$stage/matmul.cu to take its code from"
        continue
    fi
    start=$SECONDS
    work=$out/work/$stage
    rm -rf "$work"
    mkdir -p "$work"
    "$ROOT/slides/tools/expand.sh" "$stage" "$deck" "$work" > "$work/deck.md"
    # pygments highlighting: no background colour, so no extra LaTeX packages.
    # Frames top-aligned (classoption t): a continued listing starts where the first did.
    pandoc "$work/deck.md" -f markdown -t beamer --slide-level=2 --pdf-engine=pdflatex \
        --highlight-style=pygments -V aspectratio=169 -V fontsize=11pt -V classoption=t \
        -H "$ROOT/slides/tools/preamble.tex" -o "$out/$stage.pdf" 2> "$work/pandoc.log" ||
        { cat "$work/pandoc.log" >&2; echo "slides: $stage: pandoc failed (markdown: $work/deck.md)" >&2; exit 1; }
    pages=$(pdfinfo "$out/$stage.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
    echo "slides: ${out#"$ROOT"/}/$stage.pdf, ${pages:-?} pages ($((SECONDS - start)) s)"
    built=$((built + 1))
done
[ $built -gt 0 ] || echo "slides: no deck built (a deck needs slides/NN-name.md and solutions/NN-name/matmul.cu)"
