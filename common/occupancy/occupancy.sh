#!/usr/bin/env bash
# How many blocks of a lab's kernel one SM holds at once, and which resource
# stops it there: the threshold lesson 04 ("SM resources and occupancy")
# works out by hand.
#
#   make -C labs/04-tiled occupancy [THREADS=n] [LAB_DEFINES=-DTILE=16]   (needs nvcc)
#   common/occupancy/occupancy.sh LAB_SRC LAB_NAME THREADS LIMITS_TSV
#   common/occupancy/occupancy.sh --compute THREADS REGISTERS SHARED_BYTES LIMITS_TSV
#   OCCUPANCY_TSV=1 ...          one line per kernel instead (the report's table):
#       kernel, threads, registers, shared bytes, spill stores, blocks per SM, binding, occupancy %
#
# The registers and shared bytes of each kernel come from the compiler
# (ptxas -v, for the report's GPU: ARCH, default 90); the limits from the
# device (`make query`: a GPU's own, or those the CPU simulator presents,
# LIMITS_TSV being its --tsv output).  The block size is the one a kernel
# declares with __launch_bounds__; for a kernel that declares none, THREADS,
# or the stage's own design.  Dynamic shared memory (an `extern __shared__`
# array) is sized by the launch, where no compiler sees it: DYNAMIC_SHARED=
# bytes counts it for every kernel that has one; without it such a kernel's
# shared memory reads "N+dynamic" and is left out of the working.  The
# occupancy API's own answer follows,
# from cudaOccupancyMaxActiveBlocksPerMultiprocessor (occupancy_api.sh): on
# a GPU the CUDA runtime's, on the simulator CUDA's occupancy calculator's.
set -u
. "$(dirname "$0")/../c_numbers.sh"   # C's numbers (1.5, not 1,5), whatever the locale

# limit NAME: a field of the device's limits.
limit() { awk -F'\t' -v k="$1" '$1 == k { print $2; found = 1 } END { exit !found }' "$limits"; }

# occupancy THREADS REGISTERS SHARED: the worked computation, one line per limit.
occupancy() {
    local threads=$1 regs=$2 smem=$3
    awk -v threads="$threads" -v regs="$regs" -v smem="$smem" \
        -v sm_threads="$(limit maxThreadsPerMultiProcessor)" -v sm_blocks="$(limit maxBlocksPerMultiProcessor)" \
        -v sm_regs="$(limit regsPerMultiprocessor)" -v block_regs="$(limit regsPerBlock)" \
        -v sm_smem="$(limit sharedMemPerMultiprocessor)" -v reserved="$(limit reservedSharedMemPerBlock)" \
        -v warp="$(limit warpSize)" -v tsv="${OCCUPANCY_TSV:-}" '
    function ceil_to(x, unit) { return int((x + unit - 1) / unit) * unit }
    function floor_div(a, b) { return b > 0 ? int(a / b) : 1e9 }
    BEGIN {
        warps = int((threads + warp - 1) / warp)
        # Registers are handed out per warp, 256 at a time, each warp from
        # one of the four register files of an SM (one per warp scheduler, as
        # the occupancy calculator of CUDA, cuda_occupancy.h, counts them for
        # compute capability 7.0 on); shared memory in 128-byte units, plus
        # what the system reserves for each block.
        files = 4
        warp_regs = ceil_to(regs * warp, 256)
        file_warps = floor_div(int(sm_regs / files), warp_regs)
        block_smem = ceil_to(smem, 128) + reserved
        by["threads"] = floor_div(sm_threads, warps * warp)
        by["blocks"] = sm_blocks
        by["registers"] = regs > 0 ? int(file_warps * files / warps) : 1e9
        by["shared memory"] = floor_div(sm_smem, block_smem)
        if (warp_regs * warps > block_regs) {
            if (tsv == 1) { print "0\tlaunch fails: registers\t0"; exit 0 }
            print "  a block needs " warp_regs * warps " registers, more than the " block_regs " one block may have: the launch fails"; exit 1
        }
        best = 1e9
        n = split("threads,blocks,registers,shared memory", names, ",")
        for (i = 1; i <= n; i++) if (by[names[i]] < best) best = by[names[i]]
        binding = ""
        for (i = 1; i <= n; i++) if (by[names[i]] == best) binding = binding (binding == "" ? "" : " and ") names[i]
        sm_warps = int(sm_threads / warp)
        if (tsv == 1) { printf "%d\t%s\t%.1f\n", best, binding, 100 * best * warps / sm_warps; exit 0 }
        printf "  a block: %d threads = %d warps; %d registers per thread = %d per warp (rounded up to 256s); %d bytes of shared memory (+%d reserved)\n", threads, warps, regs, warp_regs, smem, reserved
        printf "  blocks per SM allowed by threads:        %d / %d = %d\n", sm_threads, warps * warp, by["threads"]
        printf "                           blocks:         %d\n", by["blocks"]
        if (regs > 0) printf "                           registers:      %d a file / %d per warp = %d warps, x %d files = %d, / %d = %d\n", int(sm_regs / files), warp_regs, file_warps, files, file_warps * files, warps, by["registers"]
        printf "                           shared memory:  %d / %d = %s\n", sm_smem, block_smem, (by["shared memory"] >= 1e9 ? "no limit" : by["shared memory"])
        printf "  => %d blocks per SM (%s), %d of %d warps: occupancy %.1f %%\n", best, binding, best * warps, sm_warps, 100 * best * warps / sm_warps
    }'
}

if [ "${1:-}" = --compute ]; then
    [ $# -eq 5 ] || { echo "usage: $0 --compute THREADS REGISTERS SHARED_BYTES LIMITS_TSV" >&2; exit 2; }
    limits=$5
    occupancy "$2" "$3" "$4"
    exit
fi

[ $# -eq 4 ] || { echo "usage: $0 LAB_SRC LAB_NAME THREADS LIMITS_TSV" >&2; exit 2; }
src=$1 name=$2 threads=$3 limits=$4
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
    echo "occupancy: needs nvcc, the CUDA toolkit's compiler, for the registers and shared memory your kernel uses."
    echo "           Without it, work it out by hand as lesson 04 shows (make query prints the limits)."
    exit 1
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
defines=${LAB_DEFINES:-}
arch=${ARCH:-90}

# The stage's own block size unless THREADS says otherwise.
if [ -z "$threads" ]; then
    tile=$(sed -n 's/.*-DTILE=\([0-9]*\).*/\1/p' <<< "$defines")
    case "$name" in
        01-*) threads=256 ;;              # 16 x 16
        02-*) threads=4 ;;                # 2 x 2
        03-*) threads=1024 ;;             # n x n at the largest n, 32
        04-*|05-*|06-*) threads=$(( ${tile:-32} * ${tile:-32} )) ;;
        07-*) threads=256 ;;              # 128 x 128 block tile, 8 x 8 per thread
        08-*) threads=128 ;;              # four warps
        09-*) threads=256 ;;              # eight warps of 64 x 64
        10-*) threads=256 ;;              # eight warps of 64 x 64, as 09
        *) echo "occupancy: give the block size: THREADS=n"; exit 2 ;;
    esac
    shown="the stage's design; THREADS=n if yours differs"
else
    shown="THREADS=$threads"
fi

log=$(mktemp)
computed=$(mktemp)
ptx=$(mktemp)
kernels=$(mktemp)
# The occupancy API's program is built and run from build/, not TMPDIR,
# which many machines mount noexec.
mkdir -p "$root/build/occupancy" && api=$(mktemp -d "$root/build/occupancy/api.XXXXXX") || exit 2
trap 'rm -rf "$log" "$computed" "$ptx" "$kernels" "$api"' EXIT
# shellcheck disable=SC2086  # LAB_DEFINES holds several flags
if ! "$nvcc" -arch="sm_$arch" -c -Xptxas -v -I"$root/common" $defines "$src" -o /dev/null > "$log" 2>&1; then
    echo "occupancy: $src does not compile with nvcc:"
    grep -E 'error' "$log" | head -n 10
    exit 1
fi
# Each kernel's declared block size and whether it has dynamic shared
# memory, from its PTX (common/occupancy/ptx_kernels.awk).
# shellcheck disable=SC2086
"$nvcc" -arch="sm_$arch" -ptx -I"$root/common" $defines "$src" -o "$ptx" > /dev/null 2>&1 &&
    awk -f "$root/common/occupancy/ptx_kernels.awk" "$ptx" > "$kernels"
dynamic_shared=${DYNAMIC_SHARED:-}
[ "${OCCUPANCY_TSV:-}" = 1 ] ||
    echo "$name${defines:+ ($defines)} on $(limit name) (compute capability $(limit 'compute capability')), a block of $threads threads ($shown)"
# ptxas: "Compiling entry function '_Z...' for 'sm_90'", then the spills,
# then "Used 32 registers, used 1 barriers, 8192 bytes smem".
awk '
    /Compiling entry function/ { match($0, /\047[^\047]+\047/); kernel = substr($0, RSTART + 1, RLENGTH - 2); spill = ""; next }
    /bytes spill stores/ { split($0, f, ","); spill = f[2] ","  f[3]; gsub(/^ +/, "", spill) }
    /Used [0-9]+ registers/ {
        regs = 0; smem = 0
        if (match($0, /Used [0-9]+ registers/)) regs = substr($0, RSTART + 5, RLENGTH - 15) + 0
        if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11) + 0
        print kernel "\t" regs "\t" smem "\t" spill
    }' "$log" |
while IFS=$'\t' read -r kernel regs smem spill; do
    IFS=$'\t' read -r _ declared dynamic < <(awk -F'\t' -v k="$kernel" '$1 == k' "$kernels")
    block=$threads block_said=$shown
    if [ "${declared:--}" != - ]; then
        block=$declared block_said="its __launch_bounds__"
    fi
    # Shared memory as the working counts it, and as a table shows it.
    counted=$smem shown_smem=$smem said_smem="$smem bytes of static shared memory"
    if [ "${dynamic:-0}" = 1 ] && [ -n "$dynamic_shared" ]; then
        counted=$((smem + dynamic_shared)) shown_smem=$counted
        said_smem="$smem bytes of static shared memory + $dynamic_shared dynamic (DYNAMIC_SHARED)"
    elif [ "${dynamic:-0}" = 1 ]; then
        shown_smem="$smem+dynamic"
        said_smem="$smem bytes of static shared memory + dynamic shared memory, sized at launch and not counted here (DYNAMIC_SHARED=bytes counts it)"
    fi
    if [ "${OCCUPANCY_TSV:-}" = 1 ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(c++filt "$kernel" 2>/dev/null || echo "$kernel")" "$block" "$regs" "$shown_smem" \
            "${spill%% bytes spill stores*}" "$(occupancy "$block" "$regs" "$counted")"
        continue
    fi
    echo
    echo "kernel $(c++filt "$kernel" 2>/dev/null || echo "$kernel"): $regs registers per thread, $said_smem, $spill (ptxas, sm_$arch)"
    [ "$block" = "$threads" ] || echo "  a block of $block threads ($block_said)"
    occupancy "$block" "$regs" "$counted"
    printf '%s\t%s\n' "$(c++filt "$kernel" 2>/dev/null | sed 's/^void //; s/(.*$//')" \
        "$(OCCUPANCY_TSV=1 occupancy "$block" "$regs" "$counted" | cut -f1)" >> "$computed"
done

# The occupancy API's own answer for the same kernels and block size
# (common/occupancy/occupancy_api.sh), beside the working above: on a GPU
# the CUDA runtime's, on the simulator CUDA's occupancy calculator's.
if [ "${OCCUPANCY_TSV:-}" != 1 ]; then
    echo
    if [ "$(limit name)" = "CPU simulator" ]; then
        api_mode=--simulator
        echo "The occupancy API on the CPU simulator (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor,"
        echo "answered by CUDA's occupancy calculator from nvcc's numbers for each kernel):"
    else
        api_mode=
        echo "The CUDA runtime on $(limit name) (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor):"
    fi
    LAB_DEFINES="$defines" ARCH="$arch" "$root/common/occupancy/occupancy_api.sh" "$src" "$threads" "$api" ${api_mode:+"$api_mode"} |
    while IFS=$'\t' read -r kernel regs smem blocks; do
        case "$regs" in error:*) echo "  kernel $kernel: $regs"; continue ;; esac
        mine=$(awk -F'\t' -v k="$kernel" '$1 == k { print $2 }' "$computed")
        if [ "$blocks" = "$mine" ]; then verdict="the same as worked out above"
        else verdict="NOT the ${mine:-?} worked out above: compare its registers and shared bytes with ptxas's"; fi
        echo "  kernel $kernel: $regs registers, $smem bytes of static shared memory, $blocks blocks per SM: $verdict"
    done
fi
