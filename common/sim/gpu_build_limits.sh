#!/bin/sh
# gpu_build_limits.sh OBJECT SOURCE: two limits a GPU build of a lab file
# enforces, checked on the simulator's build of it (OBJECT) where nvcc is not
# there to check the file first (NVCC_CHECK=0, or no CUDA toolkit: a
# Gradescope image).  Without this, a file that a GPU build rejects would be
# graded on the simulator as if it built.
#   - A kernel's static __shared__ arrays: at most 48 KiB (0xc000 bytes) a
#     block.  The simulator keeps each function's __shared__ arrays as its
#     thread-local statics, whose symbols _ZZ<function>E<name> carry their
#     sizes; what a kernel declares itself is summed (arrays at file scope,
#     or in a __device__ function it calls, are not: this check only ever
#     refuses what ptxas refuses too).
#   - __constant__ data: at most 64 KiB (0x10000 bytes) a file, the size of
#     the section cuda_sim.h puts it in.
# Says so as ptxas does (the grader explains its words: grader/grade.sh) and
# exits 1; exits 0 when both hold.  Needs readelf (binutils, beside g++).
set -u
object=${1:?usage: gpu_build_limits.sh OBJECT SOURCE}
source=${2:?usage: gpu_build_limits.sh OBJECT SOURCE}
command -v readelf > /dev/null 2>&1 || exit 0

readelf -sW "$object" 2>/dev/null | awk -v source="$source" '
    # A size as readelf prints it: decimal, or hexadecimal ("0x20000") past 99999.
    function number(s,    v, i) {
        if (s !~ /^0x/) return s + 0
        v = 0
        for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
        return v
    }
    # "   29: 0000000000000000  8448 TLS     UNIQUE DEFAULT   31 _ZZ5sgemmILb1EEvPKfS1_PfiE2sa"
    $7 != "UND" && $4 == "FUNC" && $8 ~ /^_Z/ { functions[substr($8, 3)] = 1 }
    $7 != "UND" && $4 == "TLS" && $8 ~ /^_ZZ/ { tls[$8] = number($3) }
    END {
        for (name in tls) {
            # The function whose statics these are: the longest whose
            # encoding, then E, starts the name after _ZZ.
            owner = ""
            for (f in functions)
                if (index(name, "_ZZ" f "E") == 1 && length(f) > length(owner))
                    owner = f
            if (owner != "")
                shared[owner] += tls[name]
        }
        bad = 0
        for (f in shared)
            if (shared[f] > 49152) {
                printf "%s: error: Entry function \047_Z%s\047 uses too much shared data (0x%x bytes, 0xc000 max), as ptxas says of it on a GPU (found by the simulator'"'"'s build: nvcc is not here to check the file)\n", source, f, shared[f]
                bad = 1
            }
        exit bad
    }' || exit 1

# "  [12] sim_constant_symbols PROGBITS 0000000000000000 000040 020000 00  WA  0   0 32": its size, in hexadecimal.
constant=$(readelf -SW "$object" 2>/dev/null | awk '{
    for (i = 1; i <= NF; i++) if ($i == "sim_constant_symbols") { print $(i + 4); exit } }')
case "$constant" in *[!0-9a-fA-F]*) constant= ;; esac
if [ -n "$constant" ] && [ $((0x$constant)) -gt 65536 ]; then
    constant=$((0x$constant))
    printf '%s: error: File uses too much global constant data (0x%x bytes, 0x10000 max), as ptxas says of it on a GPU (found by the simulator'"'"'s build: nvcc is not here to check the file)\n' "$source" "$constant"
    exit 1
fi
exit 0
