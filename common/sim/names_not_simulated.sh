#!/usr/bin/env bash
# names_not_simulated.sh LOG: the names of CUDA's headers (the runtime and
# driver APIs, device intrinsics, atomics: cuda_header_names.txt, beside
# this script; cooperative groups: cooperative_groups_names.txt) that the
# simulator build in LOG found undeclared, and CUDA's headers it found
# missing (cuda_header_files.txt), comma-separated, each once, or nothing.
# Such a name is the simulator's missing piece, not the student's typo
# (nvcc knows it): the grader calls it a limit of the kit, and `make run`
# says so under the compiler's messages.  Tested by
# tests/names_not_simulated.sh.
set -u
here=$(dirname "$0")
# gcc quotes with ‘’ in a UTF-8 locale and with '' in the C locale.
log=$(LC_ALL=C sed -e "s/\xe2\x80[\x98\x99]/'/g" "$1")
{
    # Names: "'x' was not declared" (gcc), "use of undeclared identifier 'x'" (clang), ...
    grep -oE "(use of undeclared identifier|unknown type name|no member named) '[A-Za-z_][A-Za-z0-9_]*'|'[A-Za-z_][A-Za-z0-9_]*' (was not declared|does not name a type|has not been declared)|there are no arguments to '[A-Za-z_][A-Za-z0-9_]*'" <<< "$log" |
        grep -oE "'[^']+'" | tr -d "'" | LC_ALL=C sort -u | grep -Fx -f <(grep -v '^#' "$here/cuda_header_names.txt")
    # Names of cooperative_groups that the simulator's stand-in
    # (include/cooperative_groups.h) lacks: a namespace member gcc names as
    # "'x' is not a member of 'cg'" (the namespace as the file spelt it, so
    # the name must be one of CUDA's), clang as "no member named 'x' in
    # namespace 'cooperative_groups'"; and any member of its groups.
    grep -oE "'[A-Za-z_][A-Za-z0-9_]*' is not a member of '[^']+'" <<< "$log" | grep -v "of 'std'" | grep -oE "^'[^']+'" | tr -d "'" |
        grep -Fx -f <(grep -v '^#' "$here/cooperative_groups_names.txt") | sed 's/^/cooperative_groups::/'
    grep -oE "no member named '[A-Za-z_][A-Za-z0-9_]*' in (namespace )?'cooperative_groups(::[^']*)?'" <<< "$log" |
        sed -E "s/^no member named '([^']+)' in (namespace )?'([^']+)'/\3::\1/"
    grep -oE "'(class|struct) cooperative_groups::[^']*' has no member named '[A-Za-z_][A-Za-z0-9_]*'" <<< "$log" |
        sed -E "s/^'(class|struct) ([^']+)' has no member named '([^']+)'/\2::\3/"
    # Fragments of CUDA's WMMA that include/mma.h does not run (its
    # static_assert says so): half, bf16 and integer ones.
    grep -q "the CPU simulator runs WMMA with TF32 inputs only" <<< "$log" && echo "nvcuda::wmma beyond TF32"
    # Headers: "x.h: No such file or directory" (gcc), "'x.h' file not found" (clang);
    # a header counts when it, or the folder it starts with, is CUDA's.
    grep -oE "fatal error: [^ :']+: No such file|fatal error: '[^']+' file not found" <<< "$log" |
        sed -E "s/^fatal error: '?([^ :']+).*/\1/" | LC_ALL=C sort -u |
        while IFS= read -r header; do
            grep -qFx -e "$header" -e "${header%%/*}/" "$here/cuda_header_files.txt" && echo "$header"
        done
} | awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g'
