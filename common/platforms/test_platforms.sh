#!/usr/bin/env bash
# `make test-platforms`: the kit on other toolchains than this machine's.
#
# A plain run (PLATFORMS unset, as in `make test`) runs three: Debian
# testing's gcc 16, this machine's clang with ucontext, and aarch64 under
# qemu.  PLATFORMS=all adds Debian 13's three rows and gcc 11; the rest
# only by name.
#
#   Debian 13 (a chroot built with debootstrap from Debian's package
#   registry, kept under build/platforms/ and reused; PLATFORMS=all):
#     gcc 14     the default compilers
#     clang 19   CC=clang CXX_SIM=clang++ (the simulator built by clang)
#     g++ 13     gcc 13 and g++ 13 with the flags Ubuntu 24.04's compilers
#                turn on by default (_FORTIFY_SOURCE=3, the stack protector,
#                stack-clash and control-flow protection), and clang 18 for
#                check mode: Ubuntu 24.04's compiler versions, libstdc++ 13's
#                headers and Ubuntu's hardening
#   Debian testing (built the same way; the newest compilers Debian has,
#   the generation of the distributions released after Debian 13):
#     gcc 16     the default compilers, with clang 21 for check mode
#     gcc 15, clang 21 as the simulator's compiler: only when named in
#                PLATFORMS (debian-testing-gcc15, debian-testing-clang21)
#   this machine:
#     gcc 11     CC=gcc-11 CXX_SIM=g++-11 (PLATFORMS=all): the compilers'
#                generation of Ubuntu 22.04, one of the base images
#                Gradescope's autograders are built on (Debian 12's g++-11)
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
#     switch; and check mode built by clang for aarch64, whose report of
#     every solution and of mutants and bad kernels with each kind of
#     finding must be the x86-64 build's, line for line; the grader itself
#     is not run there (no Check for aarch64 on this machine); but
#   Debian 12 for arm64 (a chroot of aarch64 programs, run by qemu-user
#     through binfmt_misc): the whole kit as on an aarch64 machine, `make
#     deps`, the simulator's tests and the grader with Check, every program
#     native to aarch64 but slowed by emulation (Check's timeouts and the
#     grader's scaled for it), only when named in PLATFORMS
#     (debian12-arm64: about 45 minutes the first time, 30 after)
#
# They run in two lanes at once, each taking the next row of one list,
# longest first, as it finishes (each grade beside another, as on a busy
# machine; the lanes end near together).  On each: `make deps` (in a chroot's
# fresh system: what a new user runs), the simulator's unit tests, and
# `make grade SUBMISSION=solutions BACKEND=sim` with WERROR=1 (the kit and
# the solutions build without a warning), which must give full marks.
# Each toolchain grades a fresh copy of the kit, so no object built by
# another compiler is reused.
#
# `test_platforms.sh --prepare` builds the chroots (and installs what the
# rows need here) and runs nothing: `make test` starts it at its beginning,
# beside the other phases, since most of its time is downloads; the run
# that tests waits for it (a lock in build/platforms), then finds them ready.
#
# Needs root (debootstrap, chroot, mount); otherwise it says so and skips.
#   PLATFORMS="debian13-gcc14 ..."  run only these (names as in the lists below)
#   DEBIAN_MIRROR                   default: the Debian mirror this machine's apt uses
#                                   (common/debian_mirror.sh)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/common/c_numbers.sh"   # C's numbers, whatever the locale
base="$root/build/platforms"
mirror=$("$root/common/debian_mirror.sh")
# What a plain run (and so `make test`) runs: the newest compilers Debian
# has, clang as the simulator's compiler with the portable context switch,
# and the second architecture.  Between them they meet every kind of fault
# the other rows have caught (README.md, Platforms, says which and when).
in_test="debian-testing-gcc16 host-clang-ucontext aarch64-qemu"
# The other x86-64 toolchains, which have never caught what those miss:
# PLATFORMS=all runs them with the above (some five minutes more on two
# cores, and Debian 13's chroot), as before a release.
wider="debian13-gcc14 debian13-clang19 debian13-gcc13 host-gcc11"
# Not even in PLATFORMS=all (each row costs minutes): name them.
on_request="debian-testing-gcc15 debian-testing-clang21 debian12-arm64"
all="$in_test $wider"
wanted=" ${PLATFORMS:-$in_test} "
wanted=${wanted/ all / $all }
# wants PATTERN: whether a platform whose name matches PATTERN (a glob) runs.
wants() {
    local pattern="* $1 *"
    # shellcheck disable=SC2254 # the pattern's glob is meant
    case " $wanted " in $pattern) return 0 ;; esac
    return 1
}
for name in $wanted; do
    case " $all $on_request " in *" $name "*) ;; *)
        echo "test-platforms: no platform named $name; choose from: $all $on_request, or all for the first $(wc -w <<< "$all")" >&2; exit 1 ;;
    esac
done
failures=0
. "$root/common/tests/lib.sh"   # fail, run_with_progress, copy_kit
start=$SECONDS

if [ "$(id -u)" != 0 ]; then
    echo "test-platforms: skipped (needs root: debootstrap, chroot, mount); run it as root, e.g. in CI"
    exit 0
fi
mkdir -p "$base"
prepare_only=
[ "${1:-}" = --prepare ] && prepare_only=yes
# One run at a time builds or uses the chroots: a run started while the
# chroots are being prepared waits here until that is done.  The lock is fd
# 9, which the commands that install or start anything are run without
# (9>&-), so that no daemon an install starts can hold it.
exec 9> "$base/.prepare.lock"
if ! flock -n 9; then
    echo "test-platforms: waiting for the chroots being prepared (log: $base/prepare.log)"
    flock -w 1800 9 || { echo "FAIL test-platforms: $base/.prepare.lock still held after 30 minutes"; exit 1; }
fi


# ---------------------------------------------------------------- the chroots
# A minimal Debian system with make, under build/platforms/SYSTEM; `make
# deps` installs the rest inside, as it would for a new user.  Ready once
# .ready exists (a broken build is redone).
in_chroot() {
    local system=$1; shift
    chroot "$base/$system" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@" 9>&-
}
mounted=()
cleanup() {
    local dir
    for dir in "${mounted[@]}"; do umount "$dir/proc" 2>/dev/null; done
}
trap cleanup EXIT
# Stopped (Ctrl-C, a kill): unmount on the way out.
trap 'exit 143' TERM INT

# aarch64_binfmt: lets this machine run aarch64 programs by themselves,
# through qemu-user, as binfmt_misc hands them to it: the registration
# qemu-user-static ships (for systemd, which a container may not run),
# whose F flag opens the emulator now, so it serves inside a chroot too.
# Returns 1 when the kernel will not have it.
aarch64_binfmt() {
    local dir=/proc/sys/fs/binfmt_misc
    [ -e "$dir/qemu-aarch64" ] && return 0
    "$root/common/deps.sh" aarch64 9>&- || return 1
    mountpoint -q "$dir" || mount -t binfmt_misc binfmt_misc "$dir" || return 1
    cat /usr/lib/binfmt.d/qemu-aarch64.conf > "$dir/register"
}

# prepare_chroot SYSTEM SUITE LABEL [ARCH]: builds (once) and mounts the
# chroot SYSTEM from Debian's SUITE (for this machine's architecture, or
# ARCH's, whose programs this machine must then be able to run), with
# `make deps` run inside; exits the test on failure.
prepare_chroot() {
    local system=$1 suite=$2 label=$3 arch=${4:-} dir="$base/$1" t
    if [ ! -f "$dir/.ready" ]; then
        echo "test-platforms: building a $label chroot with debootstrap into $dir (kept for later runs)"
        mountpoint -q "$dir/proc" 2>/dev/null && umount "$dir/proc"
        rm -rf "$dir"
        t=$SECONDS
        debootstrap ${arch:+--arch="$arch"} --variant=minbase --include=make "$suite" "$dir" "$mirror" \
            > "$base/debootstrap-$system.log" 2>&1 9>&- ||
            { tail -n 5 "$base/debootstrap-$system.log"; echo "FAIL debootstrap $suite (log: $base/debootstrap-$system.log)"; exit 1; }
        # Testing's Release is valid for a week only: a mirror that keeps a
        # snapshot (or lags) serves one past its date, which apt refuses.
        # The packages are still checked against their signed lists.
        [ "$suite" = testing ] && echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99mirror-snapshot"
        echo "test-platforms: $label chroot ready in $((SECONDS - t))s"
    fi
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    mountpoint -q "$dir/proc" || { mount -t proc proc "$dir/proc" && mounted+=("$dir"); }
    if [ ! -f "$dir/.ready" ]; then
        copy_kit "$dir/kit-deps"
        t=$SECONDS
        in_chroot "$system" sh -c 'apt-get update -qq && make -C /kit-deps deps' > "$base/deps-$system.log" 2>&1 ||
            { tail -n 5 "$base/deps-$system.log"; echo "FAIL make deps in $label (log: $base/deps-$system.log)"; exit 1; }
        rm -rf "$dir/kit-deps"
        touch "$dir/.ready"
        echo "test-platforms: make deps installed the kit's packages in $label in $((SECONDS - t))s"
    fi
}

# chroot_packages SYSTEM LABEL PACKAGES...: adds to the chroot what a row
# needs beyond `make deps` (other compilers), when not there yet.
chroot_packages() {
    local system=$1 label=$2 missing=() package
    shift 2
    for package in "$@"; do
        # shellcheck disable=SC2016 # dpkg-query's own field, not the shell's
        in_chroot "$system" dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return
    in_chroot "$system" sh -c 'apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' sh "${missing[@]}" \
        >> "$base/deps-$system.log" 2>&1 ||
        { tail -n 5 "$base/deps-$system.log"; echo "FAIL installing ${missing[*]} in $label (log: $base/deps-$system.log)"; exit 1; }
    echo "test-platforms: installed ${missing[*]} in $label"
}

"$root/common/deps.sh" platforms 9>&- || exit 1
# Here, not in the rows: aarch64's two rows may start together, and two
# installs at once would meet at dpkg's lock.
if wants aarch64-qemu; then "$root/common/deps.sh" aarch64 9>&- || exit 1; fi
wants 'debian13-*' && prepare_chroot debian-13 trixie "Debian 13"
# Ubuntu 24.04's compilers: g++ 13, and clang 18 for check mode.
wants debian13-gcc13 && chroot_packages debian-13 "Debian 13" g++-13 clang-18
wants 'debian-testing-*' && prepare_chroot debian-testing testing "Debian testing"
wants debian-testing-gcc15 && chroot_packages debian-testing "Debian testing" g++-15
if wants debian12-arm64; then
    aarch64_binfmt || { echo "FAIL Debian 12 arm64: this machine cannot run aarch64 programs (binfmt_misc, qemu-user-static)"; exit 1; }
    prepare_chroot debian-12-arm64 bookworm "Debian 12 arm64" arm64
fi
if [ -n "$prepare_only" ]; then
    echo "test-platforms: the chroots are ready ($((SECONDS - start))s)"
    exit 0
fi

# ---------------------------------------------------------------- one toolchain
# run_platform NAME WHERE(host, or a chroot: debian-13, debian-testing) MAKE_SETTINGS...
run_platform() {
    local name=$1 where=$2; shift 2
    local settings=("$@" WERROR=1) kit log="$base/$name.log" t=$SECONDS score
    wants "$name" || return
    if [ "$where" = host ]; then kit="$base/kit-$name"; else kit="$base/$where/kit-$name"; fi
    copy_kit "$kit" || { fail "$name: could not copy the kit"; return; }
    local inside=$kit runner=(bash -c)
    if [ "$where" != host ]; then inside=/kit-$name; runner=(in_chroot "$where" bash -c); fi
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

# build_aarch64 KIT LOG MAKE_ARGS...: common/build.mk's build for aarch64
# (the cross compilers; the tools the build itself runs, such as the launch
# rewriter, for this machine), its output added to LOG.
build_aarch64() {
    local kit=$1 log=$2
    shift 2
    make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim BUILD_CC=cc \
        CC=aarch64-linux-gnu-gcc CXX_SIM=aarch64-linux-gnu-g++ "$@" >> "$log" 2>&1
}

# aarch64: cross-built, run under qemu-user (the labs' own check against
# the CPU reference, run_lab; no Check library there for the grader).
run_aarch64() {
    wants aarch64-qemu || return
    local kit="$base/kit-aarch64" log="$base/aarch64-qemu.log" t=$SECONDS bad=0 runs=0 sysroot=/usr/aarch64-linux-gnu
    "$root/common/deps.sh" aarch64 || { fail "aarch64-qemu: the cross compiler or qemu-user could not be installed"; return; }
    copy_kit "$kit" || { fail "aarch64-qemu: could not copy the kit"; return; }
    : > "$log"
    for lab in "$kit"/solutions/[0-9]*/; do
        local stage out n
        stage=$(basename "$lab")
        out="$kit/build/$stage"
        # LAB_NAME given: the stage's tolerance (TF32 for 09) goes by its name.
        if ! build_aarch64 "$kit" "$log" WERROR=1 LAB_SRC="$lab/matmul.cu" LAB_NAME="$stage" OUT="$out" "$out/run_lab"; then
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
    if ! build_aarch64 "$kit" "$log" LAB_SRC="$kit/grader/tests/bad-kernels/fault/01-naive/matmul.cu" OUT="$fault" \
            "$fault/run_lab" ||
            ! timeout 300 qemu-aarch64-static -L "$sysroot" "$fault/run_lab" 100 1 2>&1 | tee "$fault.log" |
                grep -q 'cudaErrorIllegalAddress'; then
        fail "aarch64-qemu: an out-of-bounds kernel was not reported as cudaErrorIllegalAddress (log: $fault.log)"; bad=1
    fi
    # A kernel whose threads each keep an 80 KB local array: their stacks
    # grow from the fault handler (sim/launch.cpp), under qemu's signals too.
    local locals="$kit/build/local-array"
    runs=$((runs + 1))
    if ! build_aarch64 "$kit" "$log" WERROR=1 \
            LAB_SRC="$kit/grader/tests/right-kernels/row-in-local-memory/01-naive/matmul.cu" OUT="$locals" \
            "$locals/run_lab" ||
            ! timeout 300 qemu-aarch64-static -L "$sysroot" "$locals/run_lab" 100 1 > "$locals.log" 2>&1 ||
            ! grep -q '^result: PASS' "$locals.log"; then
        fail "aarch64-qemu: a kernel with large local arrays: $(grep -m 1 -E 'result|simulator' "$locals.log" 2>/dev/null) (log: $locals.log)"; bad=1
    fi
    # The portable context switch (SIM_FIBERS=ucontext: makecontext, then
    # _setjmp/_longjmp) on a machine that is not x86-64: stage 04, whose
    # threads meet at two barriers per tile, and the fault again.
    local portable="$kit/build/portable" stage04="$kit/solutions/04-tiled/matmul.cu"
    if ! build_aarch64 "$kit" "$log" WERROR=1 SIM_FIBERS=ucontext LAB_SRC="$stage04" OUT="$portable/04" \
            "$portable/04/run_lab" ||
            ! build_aarch64 "$kit" "$log" SIM_FIBERS=ucontext \
            LAB_SRC="$kit/grader/tests/bad-kernels/fault/01-naive/matmul.cu" OUT="$portable/fault" "$portable/fault/run_lab"; then
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
    [ $bad -eq 0 ] && { echo "ok   aarch64-qemu: every solution right in $runs runs (and 80 KB local arrays), a fault reported ($(aarch64-linux-gnu-g++ -dumpversion); assembly fibers, and the portable ones for 04 and the fault); $((SECONDS - t))s"; rm -rf "$kit"; }
}
# aarch64's check mode, on a kit of its own (beside run_aarch64's, in the
# other lane).
run_aarch64_check() {
    wants aarch64-qemu || return
    local kit="$base/kit-aarch64-check" log="$base/aarch64-qemu-check.log" t=$SECONDS reports
    "$root/common/deps.sh" aarch64 || { fail "aarch64-qemu: the cross compiler or qemu-user could not be installed"; return; }
    copy_kit "$kit" || { fail "aarch64-qemu: could not copy the kit"; return; }
    : > "$log"
    if reports=$(aarch64_check_mode "$kit" "$log"); then
        echo "ok   aarch64-qemu: check mode's report the x86-64 build's for $reports kernels (clang $(clang -dumpversion) --target=aarch64-linux-gnu); $((SECONDS - t))s"
        rm -rf "$kit"
    else
        fail "aarch64-qemu: check mode, built for aarch64, does not report as on x86-64 (above; log: $log)"
    fi
}
# Check mode on aarch64 (the CPUs of Grace Hopper nodes): the grader's
# structural tests run it on either backend, and it finds the program's
# thread-local block (where static __shared__ arrays live) by each
# machine's own layout, names lines by addr2line and shared arrays by
# readelf.  Each kernel's check report, counters and findings with their
# source lines, and its pictures must be exactly the x86-64 build's: every
# solution, and mutants and bad kernels with each kind of finding.  Prints how many
# kernels it compared, and each difference on standard error.
aarch64_check_mode() {
    local kit=$1 log=$2 sysroot=/usr/aarch64-linux-gnu compared=0 bad=0
    local work="$kit/build/check-mode" kernels=() source name n
    mkdir -p "$work"
    for source in "$kit"/solutions/[0-9]*/matmul.cu; do kernels+=("$source"); done
    # Mutants: a read before the tile is written (never-written slots,
    # named by array: in a template kernel too), a write before everyone
    # has read (a hazard), a barrier some threads skip, 32-way bank
    # conflicts, scalar loads where the solution reads float4s.
    local mutant stage
    for mutant in 04-tiled/no-first-barrier 04-tiled/no-second-barrier 04-tiled/divergent-barrier \
            05-padding/unpadded 06-bank-conflicts/no-swizzle 08-warp-tiling/no-wait 08-warp-tiling/scalar-loads; do
        stage=${mutant%/*} name=mutant-${mutant/\//-}
        mkdir -p "$work/$name"
        patch --quiet --fuzz=0 --no-backup-if-mismatch -r - -o "$work/$name/matmul.cu" \
            "$kit/solutions/$stage/matmul.cu" < "$kit/grader/mutants/$mutant.patch" >> "$log" 2>&1 ||
            { echo "     the mutant $mutant no longer applies" >&2; bad=1; continue; }
        kernels+=("$work/$name/matmul.cu")
    done
    # A race between blocks, and a warp's lanes reading words not yet written.
    kernels+=("$kit/grader/tests/bad-kernels/racy-split-k/01-naive/matmul.cu"
        "$kit/grader/tests/bad-kernels/warp-synchronous-reduction/01-naive/matmul.cu")
    for source in "${kernels[@]}"; do
        name=$(basename "$(dirname "$source")")
        case "$source" in */bad-kernels/*) name=$(basename "$(dirname "$(dirname "$source")")") ;; esac
        case "$name" in 02-*|03-*) n=31 ;; *) n=100 ;; esac
        local arm="$work/aarch64/$name" x86="$work/x86-64/$name"
        # (nvcc's check of the file, where nvcc is, has nothing to do with this.)
        if ! build_aarch64 "$kit" "$log" NVCC_CHECK=0 CHECK_CXX="clang++ --target=aarch64-linux-gnu" \
                LAB_SRC="$source" OUT="$arm" "$arm/check/run_lab" ||
                ! make --no-print-directory -C "$kit" -f common/build.mk BACKEND=sim NVCC_CHECK=0 \
                COMMON_OUT="$work/x86-64/common" LAB_SRC="$source" OUT="$x86" "$x86/check/run_lab" >> "$log" 2>&1; then
            echo "     check mode's build of $name failed (log: $log)" >&2; bad=1; continue
        fi
        # The report without the folders it names (each build's own), and
        # make check's pictures of the worst shared access and the first hazard.
        (cd "$arm/check" && SIM_CHECK_PICTURE=access.svg SIM_CHECK_HAZARD_PICTURE=hazard.svg \
            timeout 300 qemu-aarch64-static -L "$sysroot" ./run_lab "$n" 1 1 2>&1) |
            grep '^\[check\]' | sed "s|$arm/check/||g" > "$arm.report"
        (cd "$x86/check" && SIM_CHECK_PICTURE=access.svg SIM_CHECK_HAZARD_PICTURE=hazard.svg \
            timeout 300 ./run_lab "$n" 1 1 2>&1) | grep '^\[check\]' | sed "s|$x86/check/||g" > "$x86.report"
        if [ ! -s "$x86.report" ] || ! cmp -s "$arm.report" "$x86.report"; then
            echo "     $name at n=$n, x86-64 (<) and aarch64 (>):" >&2
            diff "$x86.report" "$arm.report" | head -n 6 | sed 's/^/     /' >&2
            bad=1
        fi
        local picture
        for picture in access.svg hazard.svg; do
            if [ -f "$x86/check/$picture" ] || [ -f "$arm/check/$picture" ]; then
                cmp -s "$x86/check/$picture" "$arm/check/$picture" ||
                    { echo "     $name at n=$n: the two builds drew $picture otherwise" >&2; bad=1; }
            fi
        done
        compared=$((compared + 1))
    done
    echo "$compared"
    [ $bad -eq 0 ]
}

# Every row, longest first (as measured in make test's run on two cores),
# with the on-request ones where their length puts them.  Two lanes take
# the next row from this list each time one finishes, so that both end
# near together, and every grade runs beside another, as on a busy machine,
# where its time limits stretch while blocks keep finishing
# (grader/student_run.h).  aarch64's lane is two rows here: its check mode
# (some four minutes) and its solutions' runs (some two).
rows=(debian12-arm64 host-clang-ucontext aarch64-qemu-check host-gcc11 debian13-clang19 debian13-gcc14 debian13-gcc13
    debian-testing-gcc16 debian-testing-gcc15 debian-testing-clang21 aarch64-qemu)
run_row() {
    case "$1" in
    debian13-gcc14) run_platform debian13-gcc14 debian-13 ;;
    debian13-gcc13)
        # Ubuntu's compilers add these flags themselves; here wrappers add them.
        local ubuntu_defaults='-D_FORTIFY_SOURCE=3 -fstack-protector-strong -fstack-clash-protection -fcf-protection' tool
        if wants debian13-gcc13; then
            for tool in gcc g++; do
                printf '#!/bin/sh\nexec %s-13 %s "$@"\n' "$tool" "$ubuntu_defaults" > "$base/debian-13/usr/local/bin/$tool-13-ubuntu"
                chmod +x "$base/debian-13/usr/local/bin/$tool-13-ubuntu"
            done
        fi
        run_platform debian13-gcc13 debian-13 CC=gcc-13-ubuntu CXX_SIM=g++-13-ubuntu CHECK_CXX=clang++-18 ;;
    # This machine's nvcc checks nothing a toolchain changes: left out here.
    host-gcc11)
        if command -v g++-11 >/dev/null; then
            run_platform host-gcc11 host CC=gcc-11 CXX_SIM=g++-11 NVCC_CHECK=0
        else
            wants host-gcc11 && echo "skip host-gcc11: no g++-11 here (Debian 12 has it: common/deps.sh platforms)"
        fi ;;
    host-clang-ucontext) run_platform host-clang-ucontext host CC=clang CXX_SIM=clang++ SIM_FIBERS=ucontext NVCC_CHECK=0 ;;
    debian13-clang19) run_platform debian13-clang19 debian-13 CC=clang CXX_SIM=clang++ ;;
    debian-testing-gcc16) run_platform debian-testing-gcc16 debian-testing ;;
    debian-testing-gcc15) run_platform debian-testing-gcc15 debian-testing CC=gcc-15 CXX_SIM=g++-15 ;;
    debian-testing-clang21) run_platform debian-testing-clang21 debian-testing CC=clang CXX_SIM=clang++ ;;
    # Every program emulated: some ten times slower than on the hardware.
    debian12-arm64) run_platform debian12-arm64 debian-12-arm64 CK_TIMEOUT_MULTIPLIER=10 GRADE_TIMEOUT_SCALE=4 ;;
    aarch64-qemu) run_aarch64 ;;
    aarch64-qemu-check) run_aarch64_check ;;
    esac
}
# next_row: the first row of the list no lane has taken yet (none: status 1).
next_row() {
    local taken
    {
        flock 8
        taken=$(cat "$base/rows-taken" 2>/dev/null || echo 0)
        echo $((taken + 1)) > "$base/rows-taken"
    } 8> "$base/.rows.lock"
    [ "$taken" -lt ${#rows[@]} ] || return 1
    echo "${rows[taken]}"
}
# Each lane leaves its count of failures in a file; both run in a shell of
# their own, so this one's count adds each lane's once.
lane() {
    local row
    while row=$(next_row); do run_row "$row"; done
    echo $failures > "$base/failures-lane-$1"
}
rm -f "$base"/failures-lane-* "$base/rows-taken"
lane 1 &
lane 2 &
wait
for n in 1 2; do
    failures=$((failures + $(cat "$base/failures-lane-$n" 2>/dev/null || echo 1)))
done

echo "test-platforms: $((SECONDS - start))s"
[ $failures -eq 0 ]
