#!/usr/bin/env bash
# `make grade` for a user without root or sudo (an instructor on a shared
# GPU server), on a system that has neither clang nor Check: make deps
# downloads both from the machine's own apt sources into build/tools/deps
# (common/fetch_deps.sh), and a stage grades in full, its structural tests
# (check mode, built by the downloaded clang) included.  Stage 02: the
# cheapest to run of the stages with structural tests, and the path is the
# same for every stage.
#
# As root, the machine is made into such a system for the test alone: in a
# mount namespace, clang's files and the pkg-config files are hidden and
# dpkg's list of installed packages lacks clang, LLVM and Check (so apt
# fetches them as it would there); an unprivileged user runs make.
# Otherwise it says so and is skipped.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "no_root: skipped (needs root to make the unprivileged user and hide the system's clang and Check)"; exit 0; }
command -v unshare >/dev/null || { echo "no_root: skipped (no unshare here)"; exit 0; }
user=kit-no-root
id "$user" > /dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user" || { echo "FAIL no_root: could not add a user"; exit 1; }
work=$(mktemp -d /tmp/kit-no-root.XXXXXX)
[ -n "${NO_ROOT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
kit=$work/kit
. "$root/grader/lib.sh"   # score, points_table
. "$root/common/tests/lib.sh"   # copy_kit
stage=02-shared-2x2
full=$(score max "$(points_table $stage)")
copy_kit "$kit"
# The system as dpkg would list it without clang and Check (LLVM's shared
# library stays: graphics drivers need it, so systems without clang have it).
awk -v RS= -v ORS='\n\n' '!/(^|\n)Package: (clang|clang-[0-9]+|libclang-cpp[0-9]+|libclang-common-[0-9]+-dev|check|libsubunit0|libsubunit-dev)\n/' \
    /var/lib/dpkg/status > "$work/status"
chown -R "$user" "$work"
log=$work/grade.log
llvm_dirs=$(ls -d /usr/lib/llvm-* 2>/dev/null | tr '\n' ' ')
unshare --mount bash -c "
    mount --make-rprivate / &&
    for d in $llvm_dirs /usr/lib/x86_64-linux-gnu/pkgconfig /usr/share/pkgconfig; do
        [ -d \$d ] && mount -t tmpfs tmpfs \$d; done &&
    mount --bind '$work/status' /var/lib/dpkg/status &&
    su $user -c 'cd $kit && ! command -v clang++ >/dev/null && ! pkg-config --exists check 2>/dev/null &&
        make --no-print-directory grade SUBMISSION=solutions LAB=$stage BACKEND=sim'" > "$log" 2>&1
status=$?
failed=0
expect() { grep -qE -- "$1" "$log" && echo "ok   no_root: $2" || { echo "FAIL no_root: $2: no \"$1\" in the log"; failed=1; }; }
[ $status = 0 ] && echo "ok   no_root: make grade finished (exit 0) without root, clang or Check" ||
    { echo "FAIL no_root: make grade exited $status"; failed=1; }
expect '^fetch_deps: downloading' "make deps downloaded what was missing, without root"
expect '^fetch_deps: .*clang version' "clang unpacked and runs"
expect "^Score: $full/$full" "stage $stage graded in full, its structural tests included"
[ $failed = 0 ] || tail -n 25 "$log"
exit $failed
