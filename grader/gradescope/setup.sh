#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (Ubuntu), with this bundle unpacked in /autograder/source.  It installs
# what the kit needs and builds the grader for the CPU simulator: Gradescope
# has no GPU.  (`make gradescope` puts this file at the bundle's top level.)
#
#   AUTOGRADER_ROOT   default /autograder; the kit is in $AUTOGRADER_ROOT/source
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${AUTOGRADER_SOURCE:-$here}
[ -f "$src/grader/grade.sh" ] || src=${AUTOGRADER_ROOT:-/autograder}/source

export DEBIAN_FRONTEND=noninteractive
apt-get update
# gcc/g++ (build-essential), Check and pkg-config for the grader's program,
# clang for the simulator's check mode (the structural tests), binutils'
# addr2line for its source lines, gawk for the scripts.
apt-get install -y --no-install-recommends build-essential make pkg-config check clang binutils gawk

# The grader's programs and the simulator, built now rather than for every
# submission; run_autograder only builds what is missing.
make --no-print-directory -C "$src" grade-prepare BACKEND=sim
# The kit's own check (a known-good kernel must score full marks): a kit
# that cannot grade on this image fails here, where the instructor sees it,
# and not as a zero for every student.  Its verdict is kept for run_autograder.
BACKEND=sim "$src/grader/kit_check.sh" sim
# Student code runs as an unprivileged user (run_autograder), which must
# be able to read the kit.
chmod -R a+rX "$src"
echo "setup: ready; the grader runs on the CPU simulator"
