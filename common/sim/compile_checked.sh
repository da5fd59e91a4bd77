#!/usr/bin/env bash
# compile_checked.sh COMPILER FLAGS... -o OUT.o : a check build's compile of
# one file (FLAGS hold -c SOURCE and clang's -fsanitize-coverage=...,
# trace-loads,trace-stores), with one step more than the compiler's own.
#
# clang's coverage hooks see load and store instructions, but a copy of a
# whole structure or array (`chunk c = *(const chunk *)&A[i];`, a struct
# stored into a shared tile) is no instruction in clang's IR: it is a call
# of the llvm.memcpy intrinsic, which the compiler expands into moves only
# after the hooks are placed.  Such a kernel would seem to load nothing,
# or to read shared words nothing wrote.  So the file is compiled to IR
# first, each call of llvm.memcpy, llvm.memmove and llvm.memset becomes one
# of the simulator's functions that tell check mode each access
# (sim/device_memcpy.cpp), and that IR is compiled on.  The rewrite reads
# the IR of clang 14's typed pointers (p0i8) and of the opaque ones after.
set -eu
# The object's name, taken out of the compiler's arguments; and the ones
# that choose the machine code, which the IR's compile needs again (a cross
# build's --target: else clang would put its own machine in the IR's place;
# -mllvm's options, which the IR's optimization and code generation obey).
out= args=() machine=()
while [ $# -gt 0 ]; do
    case $1 in
    -o)
        out=${2-}
        shift 2 || shift
        continue ;;
    -c) ;;  # -S below: with both, clang 21 calls -c unused
    --target=* | -march=* | -mcpu=* | -mtune=* | -m32 | -m64 | -fPIC | -fpic | -fPIE | -fpie)
        args+=("$1") machine+=("$1") ;;
    -target | -mllvm)
        args+=("$1" "${2-}") machine+=("$1" "${2-}")
        shift ;;
    *) args+=("$1") ;;
    esac
    shift
done
[ -n "$out" ] || { echo "compile_checked.sh: no -o OUT among the arguments" >&2; exit 2; }
set -- "${args[@]}"
# A dependency file (-MD) names the object, not the IR (-MQ; given alone,
# clang would call it unused, an error under -Werror).
depends_on=()
case " $* " in *" -MD "* | *" -MMD "*) depends_on=(-MQ "$out") ;; esac
"$@" "${depends_on[@]}" -S -emit-llvm -o "$out.ll"
# In each declaration of an intrinsic renamed here, only the types stay,
# and a call keeps no attribute group: the intrinsic's attributes
# (argmemonly, immarg, ...) would let the optimizer drop or move a call to
# a function that has effects of its own.  Nor does a call keep the
# !DIAssignID clang 17 and later attach to a copy (assignment tracking):
# on a call to a function the IR is invalid, and its debug info, with every
# source line check mode names, would be dropped.
sed -E \
    -e 's/@llvm\.memcpy(\.inline)?\.p0(i8)?\.p0(i8)?\.i64\(/@sim_check_memcpy(/g' \
    -e 's/@llvm\.memmove\.p0(i8)?\.p0(i8)?\.i64\(/@sim_check_memmove(/g' \
    -e 's/@llvm\.memset(\.inline)?\.p0(i8)?\.i64\(/@sim_check_memset(/g' \
    -e '/ call void @sim_check_mem(cpy|move|set)\(/s/(\)) #[0-9]+/\1/' \
    -e '/ call void @sim_check_mem(cpy|move|set)\(/s/, !DIAssignID ![0-9]+//' \
    -e '/^declare .*@sim_check_mem(cpy|move|set)\(/{
s/ (noalias|nocapture|writeonly|readonly|immarg|noundef)//g
s/\) #[0-9]+$/)/
}' "$out.ll" > "$out.hooked.ll"
# Optimized once already; compiled on without loop transformations, as the
# first pass was (backend.mk's CHECK_CXXFLAGS).
"$1" "${machine[@]}" -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -c "$out.hooked.ll" -o "$out"
rm -f "$out.ll" "$out.hooked.ll"
