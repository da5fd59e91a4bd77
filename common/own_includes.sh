#!/usr/bin/env bash
# own_includes.sh FILE [FOLDER]: the files FILE #includes "by quotes" that
# lie in FOLDER (FILE's own folder unless said), one a line, or nothing.
#
# A lab is one file: the grader takes matmul.cu alone, as a Gradescope
# upload does, and the simulator's build rewrites matmul.cu alone.  A
# helper header beside it builds with `make run` on a GPU and then fails
# to be found when graded (on the simulator its CUDA words are not even
# understood): `make run` and the grader name it instead, and say to move
# what it holds into matmul.cu.  Tested by grader/tests/bad_kernels.sh
# (own-header).
set -u
file=$1
folder=${2:-$(dirname "$file")}
grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$file" 2>/dev/null |
    sed -E 's/.*"([^"]+)"/\1/' | awk '!seen[$0]++' |
    while IFS= read -r name; do
        # A copy of the kit's own lab.h there is found in common/ anyway.
        [ -f "$folder/$name" ] && [ ! -f "$(dirname "$0")/$name" ] && echo "$name"
    done
exit 0
