#!/usr/bin/env bash
# `make test-platforms`: the kit on other toolchains than this machine's.
#
#   Debian 13 (a chroot built with debootstrap from Debian's package
#   registry, kept under build/platforms/ and reused):
#     gcc 14     the default compilers
#     clang 19   CC=clang CXX_SIM=clang++ (the simulator built by clang)
#     g++ 13     gcc 13 and g++ 13 with the flags Ubuntu 24.04's compilers
#                turn on by default (_FORTIFY_SOURCE=3, the stack protector,
#                stack-clash and control-flow protection): libstdc++ 13's
#                headers and Ubuntu's hardening, as on Ubuntu 24.04
#   this machine:
#     gcc 11     CC=gcc-11 CXX_SIM=g++-11: the compilers' generation of
#                Ubuntu 22.04, one of the base images Gradescope's
#                autograders are built on (Debian 12's g++-11 package)
#     clang and ucontext   CC=clang CXX_SIM=clang++ SIM_FIBERS=ucontext:
#                this machine's clang, with the portable context switch of
#                every machine that is neither x86-64 nor aarch64, here where
#                it runs natively (clang with the assembly switch is Debian
#                13's clang 19; g++ with the portable one, aarch64's below)
#   aarch64, under qemu-user: the simulator (its assembly context switch,
#     fiber_switch_aarch64.S) and every solution cross-built
#     (aarch64-linux-gnu-g++), each solution run at n = 31 and 100 (n = 31
#     only for the one-block stages 02 and 03) and checked against the CPU
#     reference, a kernel with 80 KB local arrays a thread run (its stacks
#     grow from the fault handler), and a kernel that faults reported as
#     CUDA would; then
#     stage 04 and the fault again with SIM_FIBERS=ucontext, the portable
#     switch; the grader itself is not run there (no Check for aarch64)
#
# They run as two lanes at once (each grade beside another, as on a busy
# machine) of about the same length.  On each: `make deps` (on Debian 13, in a fresh system: what a new user
# runs), the simulator's unit tests, and `make grade SUBMISSION=solutions
# BACKEND=sim` with WERROR=1 (the kit and the solutions build without a
# warning), which must give full marks.  Each toolchain grades a fresh copy
# of the kit, so no object built by another compiler is reused.
#
# Needs root (debootstrap, chroot, mount); otherwise it says so and skips.
#   PLATFORMS="debian13-gcc14 ..."  run only these (names as in the list below)
#   DEBIAN_MIRROR                   default http://deb.debian.org/debian
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # run_with_progress
base="$root/build/platforms"
chroot_dir="$base/debian-13"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
all="debian13-gcc14 debian13-clang19 debian13-gcc13 host-gcc11 host-clang-ucontext aarch64-qemu"
wanted=${PLATFORMS:-$all}
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
start=$SECONDS

if [ "$(id -u)" != 0 ]; then
    echo "test-platforms: skipped (needs root: debootstrap, chroot, mount); run it as root, e.g. in CI"
    exit 0
fi
mkdir -p "$base"

# The kit as git knows it (tracked, or untracked and not ignored), copied
# into DIR: no build outputs come along; its revision is stamped in, as in
# a handout, for the grade's provenance.
copy_kit() {
    rm -rf "$1" && mkdir -p "$1" &&
        (cd "$root" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$root" && xargs -0 cp --parents -t "$1") &&
        { git -C "$root" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown; } > "$1/grader/kit_revision"
}

# ---------------------------------------------------------------- the chroot
# A minimal Debian 13 with make; `make deps` installs the rest inside, as it
# would for a new user.  Ready once .ready exists (a broken build is redone).
in_chroot() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
mounted=
cleanup() {
    [ -n "$mounted" ] && umount "$chroot_dir/proc" 2>/dev/null
}
trap cleanup EXIT

"$root/common/deps.sh" platforms || exit 1
need_chroot=
case " $wanted " in *" debian13-"*) need_chroot=1 ;; esac
if [ -n "$need_chroot" ]; then
    if [ ! -f "$chroot_dir/.ready" ]; then
        echo "test-platforms: building a Debian 13 chroot with debootstrap into $chroot_dir (kept for later runs)"
        mountpoint -q "$chroot_dir/proc" 2>/dev/null && umount "$chroot_dir/proc"
        rm -rf "$chroot_dir"
        t=$SECONDS
        debootstrap --variant=minbase --include=make trixie "$chroot_dir" "$mirror" > "$base/debootstrap.log" 2>&1 ||
            { tail -n 5 "$base/debootstrap.log"; echo "FAIL debootstrap (log: $base/debootstrap.log)"; exit 1; }
        echo "test-platforms: chroot ready in $((SECONDS - t))s"
    fi
    cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
    mountpoint -q "$chroot_dir/proc" || { mount -t proc proc "$chroot_dir/proc" && mounted=1; }
    if [ ! -f "$chroot_dir/.ready" ]; then
        # What make deps installs, from a kit copy, then g++ 13 for the
        # Ubuntu-like toolchain.
        copy_kit "$chroot_dir/kit-deps"
        t=$SECONDS
        in_chroot sh -c 'apt-get update -qq && make -C /kit-deps deps && 
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++-13' \
            > "$base/chroot-deps.log" 2>&1 ||
            { tail -n 5 "$base/chroot-deps.log"; echo "FAIL make deps in Debian 13 (log: $base/chroot-deps.log)"; exit 1; }
        rm -rf "$chroot_dir/kit-deps"
        touch "$chroot_dir/.ready"
        echo "test-platforms: make deps installed the kit's packages in Debian 13 in $((SECONDS - t))s"
    fi
fi

# ---------------------------------------------------------------- one toolchain
# run_platform NAME WHERE(chroot|host) MAKE_SETTINGS...
run_platform() {
    local name=$1 where=$2; shift 2
    local settings=("$@" WERROR=1) kit log="$base/$name.log" t=$SECONDS score
    case " $wanted " in *" $name "*) ;; *) return ;; esac
    if [ "$where" = chroot ]; then kit="$chroot_dir/kit-$name"; else kit="$base/kit-$name"; fi
    copy_kit "$kit" || { fail "$name: could not copy the kit"; return; }
    local inside=$kit runner=(bash -c)
    if [ "$where" = chroot ]; then inside=/kit-$name; runner=(in_chroot bash -c); fi
    echo "     $name: the simulator's tests and the solutions' grade ($where${*:+: $*})"
    run_with_progress "$name" "$log" "${runner[@]}" "cd $inside && set -o pipefail &&
        make --no-print-directory ${settings[*]} test-sim-unit 2>&1 | tail -n 30 &&
        make --no-print-directory ${settings[*]} grade SUBMISSION=solutions BACKEND=sim"
    local status=$?
    score=$(grep '^Score: ' "$log" | tail -n 1)
    local made_with
    made_with=$(grep '^Graded on ' "$log" | tail -n 1 | sed 's/^Graded on //')
    if [ $status -eq 0 ] && [[ $score =~ ^Score:\ ([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
            grep -q 'test-sim-unit: all passed' "$log"; then
        echo "ok   $name: simulator tests passed, solutions $score ($made_with; $((SECONDS - t))s)"
        rm -rf "$kit"
    else
        fail "$name: status $status, ${score:-no score} (log: $log)"
        grep -m 3 -E 'error|FAIL|kit error' "$log" | sed 's/^/     /'
    fi
}

# aarch64: cross-built, run under qemu-user (the labs' own check against
# the CPU reference, run_lab; no Check library there for the grader).
run_aarch64() {
    case " $wanted " in *" aarch64-qemu "*) ;; *) return ;; esac
    local kit="$base/kit-aarch64" log="$base/aarch64-qemu.log" t=$SECONDS bad=0 runs=0 sysroot=/usr/aarch64-linux-gnu
    "$root/common/deps.sh" aarch64 || { fail "aarch64-qemu: the cross compiler or qemu-user could not be installed"; return; }
    copy_kit "$kit" || { fail "aarch64-qemu: could not copy the kit"; return; }
    : > "$log"
    for lab in "$kit"/solutions/[0-9]*/; do
        local stage out n
        stage=$(basename "$lab")
        out="$kit/build/$stage"
        if ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim WERROR=1 BUILD_CC=cc \
                CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ \
                LAB_SRC="$lab/matmul.cu" OUT="$out" "$out/run_lab" >> "$log" 2>&1; then
            fail "aarch64-qemu: $stage does not build (log: $log)"; bad=1; continue
        fi
        for n in 31 100; do
            case "$stage:$n" in 02-*:100|03-*:100) continue ;; esac
            runs=$((runs + 1))
            if ! timeout 300 qemu-aarch64-static -L "$sysroot" "$out/run_lab" "$n" 1 > "$out/run-$n.log" 2>&1 ||
                    ! grep -q '^result: PASS' "$out/run-$n.log"; then
                fail "aarch64-qemu: $stage at n=$n: $(grep -m 1 -E 'result|simulator' "$out/run-$n.log")"; bad=1
            fi
        done
    done
    # A kernel that writes out of bounds: the simulator's fault handler,
    # running on a fiber's stack, must report it as CUDA would.
    local fault="$kit/build/fault"
    if ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim BUILD_CC=cc \
            CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ \
            LAB_SRC="$kit/grader/tests/bad-kernels/fault/01-naive/matmul.cu" OUT="$fault" "$fault/run_lab" >> "$log" 2>&1 ||
            ! timeout 300 qemu-aarch64-static -L "$sysroot" "$fault/run_lab" 100 1 2>&1 | tee "$fault.log" |
                grep -q 'cudaErrorIllegalAddress'; then
        fail "aarch64-qemu: an out-of-bounds kernel was not reported as cudaErrorIllegalAddress (log: $fault.log)"; bad=1
    fi
    # A kernel whose threads each keep an 80 KB local array: their stacks
    # grow from the fault handler (sim/launch.cpp), under qemu's signals too.
    local locals="$kit/build/local-array"
    runs=$((runs + 1))
    if ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim WERROR=1 BUILD_CC=cc \
            CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ \
            LAB_SRC="$kit/grader/tests/right-kernels/row-in-local-memory/01-naive/matmul.cu" OUT="$locals" \
            "$locals/run_lab" >> "$log" 2>&1 ||
            ! timeout 300 qemu-aarch64-static -L "$sysroot" "$locals/run_lab" 100 1 > "$locals.log" 2>&1 ||
            ! grep -q '^result: PASS' "$locals.log"; then
        fail "aarch64-qemu: a kernel with large local arrays: $(grep -m 1 -E 'result|simulator' "$locals.log" 2>/dev/null) (log: $locals.log)"; bad=1
    fi
    # The portable context switch (SIM_FIBERS=ucontext: makecontext, then
    # _setjmp/_longjmp) on a machine that is not x86-64: stage 04, whose
    # threads meet at two barriers per tile, and the fault again.
    local portable="$kit/build/portable" stage04="$kit/solutions/04-tiled/matmul.cu"
    if ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim WERROR=1 BUILD_CC=cc SIM_FIBERS=ucontext \
            CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ \
            LAB_SRC="$stage04" OUT="$portable/04" "$portable/04/run_lab" >> "$log" 2>&1 ||
            ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim BUILD_CC=cc SIM_FIBERS=ucontext \
            CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ \
            LAB_SRC="$kit/grader/tests/bad-kernels/fault/01-naive/matmul.cu" OUT="$portable/fault" "$portable/fault/run_lab" >> "$log" 2>&1; then
        fail "aarch64-qemu: the portable context switch does not build (log: $log)"; bad=1
    else
        for n in 31 100; do
            runs=$((runs + 1))
            if ! timeout 300 qemu-aarch64-static -L "$sysroot" "$portable/04/run_lab" "$n" 1 > "$portable/run-$n.log" 2>&1 ||
                    ! grep -q '^result: PASS' "$portable/run-$n.log"; then
                fail "aarch64-qemu: 04-tiled at n=$n with SIM_FIBERS=ucontext: $(grep -m 1 -E 'result|simulator|longjmp' "$portable/run-$n.log")"; bad=1
            fi
        done
        timeout 300 qemu-aarch64-static -L "$sysroot" "$portable/fault/run_lab" 100 1 2>&1 | tee "$portable/fault.log" |
            grep -q 'cudaErrorIllegalAddress' ||
            { fail "aarch64-qemu: with SIM_FIBERS=ucontext, an out-of-bounds kernel was not reported (log: $portable/fault.log)"; bad=1; }
    fi
    [ $bad -eq 0 ] && { echo "ok   aarch64-qemu: every solution right in $runs runs (and 80 KB local arrays), a fault reported ($(aarch64-linux-gnu-g++ -dumpversion); assembly fibers, and the portable ones for 04 and the fault; $((SECONDS - t))s)"; rm -rf "$kit"; }
}
# Two lanes at once, each in order: every grade runs beside another, as
# on a busy machine, where its time limits stretch while blocks keep
# finishing (grader/student_run.h).  Each lane leaves its count of failures
# in a file.
gcc_lane() {
    run_platform debian13-gcc14 chroot
    # Ubuntu's compilers add these flags themselves; here wrappers add them.
    local ubuntu_defaults='-D_FORTIFY_SOURCE=3 -fstack-protector-strong -fstack-clash-protection -fcf-protection' tool
    case " $wanted " in *" debian13-gcc13 "*)
        for tool in gcc g++; do
            printf '#!/bin/sh\nexec %s-13 %s "$@"\n' "$tool" "$ubuntu_defaults" > "$chroot_dir/usr/local/bin/$tool-13-ubuntu"
            chmod +x "$chroot_dir/usr/local/bin/$tool-13-ubuntu"
        done ;;
    esac
    run_platform debian13-gcc13 chroot CC=gcc-13-ubuntu CXX_SIM=g++-13-ubuntu
    # This machine's nvcc checks nothing a toolchain changes: left out here.
    if command -v g++-11 >/dev/null; then
        run_platform host-gcc11 host CC=gcc-11 CXX_SIM=g++-11 NVCC_CHECK=0
    else
        case " $wanted " in *" host-gcc11 "*) echo "skip host-gcc11: no g++-11 here (Debian 12 has it: common/deps.sh platforms)" ;; esac
    fi
    echo $failures > "$base/failures-gcc-lane"
}
# This machine's nvcc checks nothing a toolchain changes: left out here.
clang_lane() {
    run_platform host-clang-ucontext host CC=clang CXX_SIM=clang++ SIM_FIBERS=ucontext NVCC_CHECK=0
    run_platform debian13-clang19 chroot CC=clang CXX_SIM=clang++
    run_aarch64
    echo $failures > "$base/failures-clang-lane"
}
rm -f "$base"/failures-*-lane
gcc_lane &
clang_lane
wait
for lane in gcc clang; do
    failures=$((failures + $(cat "$base/failures-$lane-lane" 2>/dev/null || echo 1)))
done

echo "test-platforms: $((SECONDS - start))s"
[ $failures -eq 0 ]
