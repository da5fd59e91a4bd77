#!/usr/bin/env bash
# The change from one stage's solution to the next, as a slide shows it:
# a unified diff of the two kernels (comments left out, as code.sh prints
# them), made when the deck is built.
#
#   slides/tools/diff.sh OLD.cu NEW.cu                     the kernel sections
#   slides/tools/diff.sh OLD.cu NEW.cu OLD_NAMES NEW_NAMES  chosen functions (space-separated lists)
#
# The file names in the header are the paths under solutions/.
set -euo pipefail
old=$1 new=$2
old_names=${3:-} new_names=${4:-}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086  # the name lists are meant to split
"$here/code.sh" "$old" $old_names > "$tmp/old"
# shellcheck disable=SC2086
"$here/code.sh" "$new" $new_names > "$tmp/new"
label() { echo "$1" | sed 's|.*/\(solutions/\)|\1|'; }
# diff exits 1 when the files differ, which is the point here.
diff -u --label "$(label "$old")" --label "$(label "$new")" "$tmp/old" "$tmp/new" || [ $? = 1 ]
