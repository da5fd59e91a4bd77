#!/bin/sh
# A lab's objects are rebuilt when what they were built with changes, not
# only when their sources do: an object kept from other settings (another
# compiler, other defines, a kit whose check flags changed) would run code
# other than the one asked for.  common/build.mk records the settings in
# OUT/built-with.  Run from the repo root:
#   sh common/tests/rebuilds_on_settings.sh BUILD_DIR
set -u
# From the kit's defaults: a setting the caller's make passed down (make
# NVCC_CHECK=0 test-sim-unit puts it in the environment) would make a
# change of it below no change.
unset NVCC_CHECK LAB_DEFINES CHECK_CXXFLAGS

out=${1:?usage: rebuilds_on_settings.sh BUILD_DIR}/rebuilds_on_settings
rm -rf "$out"
failures=0

# build WHAT [SETTING...]: builds OUT/WHAT of stage 01's solution; prints
# the compiler commands make ran (echoed even under `make -s test`, whose
# flags the inner make would otherwise inherit).
build() {
    what=$1
    shift
    MAKEFLAGS= make --no-print-directory -f common/build.mk BACKEND=sim LAB_SRC=solutions/01-naive/matmul.cu \
        OUT="$out" "$@" "$out/$what" 2>&1 | grep -e ' -c ' || true
}

# expect WHAT rebuilt|kept [SETTING]: whether the lab file is compiled again.
expect() {
    what=$1 state=$2
    shift 2
    compiled=$(build "$what" "$@" | grep -c -e "$out/matmul.o\$" -e "$out/check/matmul.o\$")
    if [ "$state" = rebuilt ] && [ "$compiled" -eq 0 ]; then
        echo "FAIL: $what $*: the lab file was not compiled again" >&2
        failures=$((failures + 1))
    elif [ "$state" = kept ] && [ "$compiled" -ne 0 ]; then
        echo "FAIL: $what $*: the lab file was compiled again with nothing changed" >&2
        failures=$((failures + 1))
    fi
}

expect run_lab rebuilt
expect run_lab kept
expect run_lab rebuilt LAB_DEFINES=-DTILE=16
expect run_lab kept LAB_DEFINES=-DTILE=16
expect run_lab rebuilt
# nvcc's check switched off and on again (NVCC_CHECK, common/backend.mk:
# on by default wherever nvcc is).
if command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    expect run_lab rebuilt NVCC_CHECK=0
    expect run_lab kept NVCC_CHECK=0
    expect run_lab rebuilt
fi
if command -v "${CHECK_CXX:-clang++}" > /dev/null; then
    expect check/run_lab rebuilt
    expect check/run_lab kept
    # The check build's own flags: one more flag must not reuse its object.
    expect check/run_lab rebuilt "CHECK_CXXFLAGS=-O2 -gdwarf-4 -std=c++17 -fno-strict-aliasing -pthread -DLAB_SIMULATOR \
-DLAB_CHECK_MODE -fno-vectorize -fno-slp-vectorize -fsanitize-coverage=func,trace-loads,trace-stores -fno-builtin-memcpy"
fi

# The program around the lab file (common/run_lab.cu) is compiled once per
# stage, defines and settings, and kept (build.mk's program_object): another
# build of the stage elsewhere copies it, other defines compile their own,
# and a build that cannot write where it is kept compiles its own each time.
# The stage is named for this test alone, so the first build finds nothing.
# program_made NAME OUT [SETTING...]: "compiled" or "copied" for OUT's
# run_lab.o, "failed" when OUT/run_lab was not built (make run as $run_as).
run_as=
name=rebuilds-test-$$
program_made() {
    lab=$1 dir=$2
    shift 2
    made=$(MAKEFLAGS= $run_as make --no-print-directory -f common/build.mk BACKEND=sim LAB_SRC=solutions/01-naive/matmul.cu \
        LAB_NAME="$lab" OUT="$dir" "$@" "$dir/run_lab" 2>&1)
    if [ ! -x "$dir/run_lab" ]; then echo failed
    elif printf '%s\n' "$made" | grep -q -e ' -c .*run_lab\.cu'; then echo compiled
    else echo copied; fi
}
# expect_program WANT NAME OUT [SETTING...]
expect_program() {
    want=$1
    shift
    got=$(program_made "$@")
    [ "$got" = "$want" ] ||
        { echo "FAIL: the program around the lab file was $got, not $want, in $2 ($*)" >&2; failures=$((failures + 1)); }
}
expect_program compiled "$name" "$out/a"
expect_program copied "$name" "$out/b"
expect_program compiled "$name" "$out/c" LAB_DEFINES=-DTILE=16
expect_program copied "$name" "$out/d" LAB_DEFINES=-DTILE=16
# Where nothing can be kept: as root, another user; otherwise the folder
# made read-only for the test.
kept=$(pwd)/build/sim/common/programs
mkdir -p "$out/e" "$out/f" && chmod 777 "$out" "$out/e" "$out/f"
if [ "$(id -u)" = 0 ]; then
    id -u nobody > /dev/null 2>&1 && command -v setpriv > /dev/null &&
        run_as="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups"
else
    chmod a-w "$kept"
fi
if [ "$(id -u)" != 0 ] || [ -n "$run_as" ]; then
    expect_program compiled "$name-unkept" "$out/e"
    expect_program compiled "$name-unkept" "$out/f"
fi
[ "$(id -u)" = 0 ] || chmod u+w "$kept"
run_as=
rm -rf "$kept/$name"-*
rm -rf "$out"
[ $failures -eq 0 ] && echo "rebuilds_on_settings.sh: objects are rebuilt when their settings change, and only then"
[ $failures -eq 0 ]
