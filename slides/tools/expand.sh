#!/usr/bin/env bash
# Turns one deck source (slides/NN-name.md) into the pandoc markdown that
# pandoc -t beamer reads, filling in everything that comes from the kit.
#
#   ROOT=... REPORTS=... slides/tools/expand.sh STAGE DECK.md OUTDIR > deck.md
#
# A deck source is pandoc markdown ("#" a section, "##" a frame) with these
# lines of its own, each replaced when the deck is built:
#
#   @@code [NAME...]          the stage's kernel (or the named functions) from
#                             solutions/STAGE/matmul.cu, comments left out
#   @@diff [OLD... : NEW...]  diff -u from the previous stage's solution
#   @@figure NAME [v=x ...]   slides/figures/NAME.gp drawn by gnuplot, with
#                             those gnuplot assignments
#   @@image PATH              a figure the kit draws for a lesson (an SVG
#                             under labs/, common/figures/), as a PDF
#                             (rsvg-convert) the frame's height
#   @@results                 the measured-results frames (results.sh)
#   @@agreement PAT KERNEL... rows of common/sim/agreement.md (agreement.sh):
#                             the simulator's counts beside a GPU's
#
# and, anywhere in a line:
#
#   {{def NAME}}              the value of "#define NAME" in the stage's solution
#   {{targ NAME K}}           the K-th template argument of the first NAME<...>
#                             in the stage's solution (a launch's tile shapes)
#   {{count N KEY}}           a simulator count for this stage at size n
#   {{count STAGE N KEY}}     the same for another stage
#   {{sass LABEL FIELD}}      a number of LABEL's hot loop in machine code
#                             (the simulator report's sass.tsv: make sass)
#   {{resources LABEL FIELD}} LABEL's registers, blocks_per_sm or occupancy
#                             (the simulator report's resources.tsv: make occupancy)
#   {{stage}} {{prev}}        this stage's name, the previous stage's
#
# A long excerpt is set smaller, and past one frame's worth it continues on
# a frame of the same title.  A directive that finds nothing (no such
# function, no such count) stops the build: a slide never silently loses
# the number it was written around.
set -euo pipefail
stage=$1 deck=$2 out=$3
# shellcheck source=slides/tools/lib.sh
. "$ROOT/slides/tools/lib.sh"
tools=$ROOT/slides/tools
solution=$ROOT/solutions/$stage/matmul.cu
deck_error() { echo "slides: $deck:$lineno: $*" >&2; exit 1; }

# The previous stage: the highest-numbered solution below this one.
prev=
for d in "$ROOT"/solutions/[0-9][0-9]-*/; do
    s=$(basename "$d")
    [ "${s%%-*}" \< "${stage%%-*}" ] && prev=$s
done
sim=$(sim_reports | head -n 1)

inline() {  # inline LINE: every {{...}} replaced
    local line=$1 key val w
    while [[ $line =~ \{\{([^}]*)\}\} ]]; do
        key=${BASH_REMATCH[1]}
        read -r -a w <<< "$key"
        case "${w[0]}" in
        def)
            val=$(awk -v k="${w[1]}" '$1 == "#define" && $2 == k { print $3; exit }' "$solution")
            ;;
        targ)
            val=$(grep -o "${w[1]}<[0-9, ]*>" "$solution" | head -n 1 | sed 's/.*<//; s/>//' |
                awk -F', *' -v k="${w[2]}" '{ print $k }')
            ;;
        count)
            [ -n "$sim" ] || deck_error "{{$key}}: no simulator report under $REPORTS"
            if [ ${#w[@]} = 3 ]; then val=$(count "$sim" "$stage" "${w[1]}" "${w[2]}")
            else val=$(count "$sim" "${w[1]}" "${w[2]}" "${w[3]}"); fi
            ;;
        sass)
            [ -n "$sim" ] || deck_error "{{$key}}: no simulator report under $REPORTS"
            val=$(sass "$sim" "${w[1]}" "${w[2]}")
            ;;
        resources)
            [ -n "$sim" ] || deck_error "{{$key}}: no simulator report under $REPORTS"
            val=$(resources "$sim" "${w[1]}" "${w[2]}")
            ;;
        stage) val=$stage ;;
        prev) val=$prev ;;
        *) deck_error "unknown {{$key}}" ;;
        esac
        [ -n "$val" ] || deck_error "{{$key}} found nothing"
        line=${line/"{{$key}}"/$val}
    done
    printf '%s\n' "$line"
}

# listing LANGUAGE FILE: a code block sized to fit, split over frames.
# Sizes are those of an 11pt 16:9 beamer frame below its title: 17 lines of
# 86 characters at \footnotesize, 21 of 96 at \scriptsize, 28 of 128 at
# \tiny.  Longer: \scriptsize over several frames, which reads better on a
# projector than one frame of \tiny.
listing() {
    local lang=$1 file=$2 lines width size per chunks even i
    lines=$(wc -l < "$file")
    width=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$file")
    if [ "$lines" -le 17 ] && [ "$width" -le 86 ]; then size=footnotesize per=17
    elif [ "$width" -le 96 ]; then size=scriptsize per=21
    else size=tiny per=28; fi
    # As many frames as it takes, filled evenly: each ends at a blank line
    # near its share (within the frame), or at its share if there is none.
    chunks=$(( (lines + per - 1) / per ))
    even=$(( (lines + chunks - 1) / chunks ))
    awk -v max=$per -v share=$even -v total="$lines" -v chunks="$chunks" '
        { buf[NR] = $0 }
        END {
            start = 1; part = 0
            while (start <= total) {
                end = start + share - 1
                if (end >= total || (part + 1 >= chunks && total - start < max)) end = total
                else for (d = 0; d <= 4; d++) {
                    if (end + d < start + max && end + d < total && buf[end + d] == "") { end += d; break }
                    if (buf[end - d] == "" && end - d > start) { end -= d; break }
                }
                part++
                for (j = start; j <= end; j++) print part "\t" buf[j]
                start = end + 1
            }
        }' "$file" > "$file.parts"
    chunks=$(cut -f1 "$file.parts" | sort -u | wc -l)
    for i in $(seq 1 "$chunks"); do
        if [ "$i" -gt 1 ]; then
            echo
            echo "## $frame (continued)"
            echo
        fi
        echo "\\fvset{fontsize=\\$size}"
        echo
        echo "\`\`\`$lang"
        awk -F'\t' -v p="$i" '$1 == p { sub(/^[0-9]+\t/, ""); print }' "$file.parts"
        echo "\`\`\`"
    done
    rm -f "$file.parts"
}

figures=0
frame=
lineno=0
while IFS= read -r raw || [ -n "$raw" ]; do
    lineno=$((lineno + 1))
    line=$(inline "$raw")
    read -r -a w <<< "$line" || true
    case "$line" in
    "## "*)
        frame=${line#"## "}
        echo "$line"
        ;;
    "@@code"*)
        "$tools/code.sh" "$solution" "${w[@]:1}" > "$out/code.txt" || deck_error "@@code failed"
        listing cpp "$out/code.txt"
        ;;
    "@@diff"*)
        [ -n "$prev" ] || deck_error "@@diff: no stage before $stage in solutions/"
        names="${w[*]:1}"
        old_names= new_names=
        if [ -n "$names" ]; then
            old_names=${names%%:*} new_names=${names#*:}
        fi
        "$tools/diff.sh" "$ROOT/solutions/$prev/matmul.cu" "$solution" "$old_names" "$new_names" > "$out/diff.txt" ||
            deck_error "@@diff failed"
        listing diff "$out/diff.txt"
        ;;
    "@@figure"*)
        figures=$((figures + 1))
        pdf="$out/figure-$figures-${w[1]}.pdf"
        vars=$(printf '%s; ' "${w[@]:2}")
        figure "${w[1]}" "$pdf" "stage='$stage'; $vars" || deck_error "@@figure ${w[1]}"
        echo "![]($pdf)"
        ;;
    "@@image"*)
        figures=$((figures + 1))
        pdf="$out/figure-$figures-$(basename "${w[1]}" .svg).pdf"
        [ -f "$ROOT/${w[1]}" ] || deck_error "@@image: no ${w[1]}"
        rsvg-convert -f pdf -o "$pdf" "$ROOT/${w[1]}" || deck_error "@@image: rsvg-convert failed on ${w[1]}"
        echo "![]($pdf){height=78%}"
        ;;
    "@@results"*)
        "$tools/results.sh" "$stage" "$out" || deck_error "@@results failed"
        ;;
    "@@agreement"*)
        "$tools/agreement.sh" "${w[@]:1}" || deck_error "@@agreement failed"
        ;;
    *)
        printf '%s\n' "$line"
        ;;
    esac
done < "$deck"
