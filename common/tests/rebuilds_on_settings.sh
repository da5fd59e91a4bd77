#!/bin/sh
# A lab's objects are rebuilt when what they were built with changes, not
# only when their sources do: an object kept from other settings (another
# compiler, other defines, a kit whose check flags changed) would run code
# other than the one asked for.  common/build.mk records the settings in
# OUT/built-with.  Run from the repo root:
#   sh common/tests/rebuilds_on_settings.sh BUILD_DIR
set -u

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
rm -rf "$out"
[ $failures -eq 0 ] && echo "rebuilds_on_settings.sh: objects are rebuilt when their settings change, and only then"
[ $failures -eq 0 ]
