#!/usr/bin/env bash
# Prints the code a slide shows, taken from a solution file when the deck is
# built, so a slide can never drift from the code students are graded on.
#
#   slides/tools/code.sh FILE                 the kernel section: from "// ---- kernel(s) ----"
#                                             to "// ---- launcher ----"
#   slides/tools/code.sh FILE NAME...         those functions (kernels, device helpers) or
#                                             structs, in order
#   slides/tools/code.sh FILE NAME --from TEXT --to TEXT
#                                             part of one function: from the first line holding
#                                             TEXT to the next line holding the other TEXT, and on
#                                             until the braces opened in between are closed
#   slides/tools/code.sh FILE NAME --from TEXT --upto TEXT
#                                             the same, ending at the second TEXT's line
#   ... --omit TEXT                           (after --to/--upto) the block that opens on the line
#                                             holding TEXT shown as its first line, "...", its "}"
#
# Comments are left out: on a slide the lecturer says what they say, and
# without them a kernel fits on one or two frames.  Blank lines are kept
# single.  Fails if a named function is not in the file.
set -euo pipefail
file=$1
shift

section() {
    awk '/^\/\/ ---- kernels? ----/ { on = 1; next }
         /^\/\/ ---- launcher ----/ { on = 0 }
         on' "$file"
}

# A function starts on a line that is not indented and names it before its
# "(", with the declaration lines just above it (a template line, a
# __global__ line carrying __launch_bounds__): that is how every solution is
# written.  It ends at the first "}" in column 0.
function_text() {
    awk -v name="$1" '
        !on && /^[^ \t\/#]/ && ($0 ~ "(^|[ *])" name "\\(" || $0 ~ "^struct " name " ") {
            on = 1
            for (i = 1; i <= held; i++) print decl[i]
        }
        on { print }
        on && /^}/ { exit }
        on && /^};/ { exit }
        /^(template|__global__|__device__)/ && !/[;}]$/ { decl[++held] = $0; next }
        { held = 0 }' "$file"
}

strip_comments() {
    # Whole-line comments go; a comment after code goes with the spaces
    # before it.  Then runs of blank lines become one, and none at the ends.
    sed -e '/^[[:space:]]*\/\//d' -e 's/[[:space:]]*\/\/.*$//' |
        awk 'NF { if (held && printed) print ""; print; printed = 1; held = 0; next } { held = 1 }'
}

if [ $# -eq 0 ]; then
    text=$(section)
    [ -n "$text" ] || { echo "code.sh: no '// ---- kernel ----' section in $file" >&2; exit 1; }
    printf '%s\n' "$text" | strip_comments
    exit 0
fi
# part FROM TO: the lines from FROM to TO (substrings), then on to where
# the braces opened since FROM are closed again.  It reads to the end (no
# early exit), so the pipe feeding it never breaks under pipefail.
part() {
    awk -v from="$1" -v to="$2" -v close_braces="$3" '
        done || (!on && !index($0, from)) { next }
        { on = 1; print; depth += gsub(/{/, "{") - gsub(/}/, "}") }
        !reached && index($0, to) { reached = 1 }
        reached && (depth <= 0 || !close_braces) { done = 1 }'
}

# omit TEXT: the brace block opening on the line holding TEXT, elided.
omit() {
    awk -v text="$1" '
        !skipping && index($0, text) {
            print; match($0, /^ */); pad = substr($0, 1, RLENGTH)
            print pad "    ..."
            depth = gsub(/{/, "{") - gsub(/}/, "}"); skipping = depth > 0; next
        }
        skipping { depth += gsub(/{/, "{") - gsub(/}/, "}"); if (depth <= 0) { skipping = 0; print } ; next }
        { print }'
}

first=1
while [ $# -gt 0 ]; do
    name=$1
    shift
    text=$(function_text "$name")
    [ -n "$text" ] || { echo "code.sh: no function $name in $file" >&2; exit 1; }
    if [ "${1:-}" = --from ] && { [ "${3:-}" = --to ] || [ "${3:-}" = --upto ]; }; then
        text=$(printf '%s\n' "$text" | strip_comments | part "$2" "$4" "$([ "$3" = --to ] && echo 1)")
        [ -n "$text" ] || { echo "code.sh: no '$2' in $name ($file)" >&2; exit 1; }
        shift 4
        if [ "${1:-}" = --omit ]; then
            text=$(printf '%s\n' "$text" | omit "$2")
            shift 2
        fi
    fi
    [ $first = 1 ] || echo
    printf '%s\n' "$text" | strip_comments
    first=0
done
