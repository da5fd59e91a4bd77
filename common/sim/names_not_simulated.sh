#!/usr/bin/env bash
# names_not_simulated.sh LOG: the names of CUDA's headers (the runtime API,
# device intrinsics, atomics: cuda_header_names.txt, beside this script)
# that the simulator build in LOG found undeclared, comma-separated, or
# nothing.  Such a name is the simulator's missing piece, not the student's
# typo (nvcc knows it): the grader calls it a limit of the kit, and `make
# run` says so under the compiler's messages.
set -u
names=$(dirname "$0")/cuda_header_names.txt
# gcc quotes with ‘’ in a UTF-8 locale and with '' in the C locale.
LC_ALL=C sed -e "s/\xe2\x80[\x98\x99]/'/g" "$1" |
    grep -oE "(use of undeclared identifier|unknown type name|no member named) '[A-Za-z_][A-Za-z0-9_]*'|'[A-Za-z_][A-Za-z0-9_]*' (was not declared|does not name a type|has not been declared)|there are no arguments to '[A-Za-z_][A-Za-z0-9_]*'" |
    grep -oE "'[^']+'" | tr -d "'" | LC_ALL=C sort -u |
    grep -Fx -f <(grep -v '^#' "$names") | paste -sd, - | sed 's/,/, /g'
