#!/usr/bin/env bash
# `make test-occupancy` (with nvcc): occupancy.sh takes a kernel's block
# size from its __launch_bounds__, and counts dynamic shared memory only
# when DYNAMIC_SHARED says how much, marking it "+dynamic" otherwise.
#
#   common/occupancy/tests/declared_launch.sh LIMITS_TSV OUT_DIR
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
limits=${1:?usage: declared_launch.sh LIMITS_TSV OUT_DIR} out=${2:?usage: declared_launch.sh LIMITS_TSV OUT_DIR}
mkdir -p "$out"
cat > "$out/two_kernels.cu" <<'CU'
// A kernel that declares its block size and uses dynamic shared memory,
// and one that does neither and has a static array.
__global__ void __launch_bounds__(64) declared_dynamic(float *x)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[63 - threadIdx.x];
}
__global__ void plain_static(float *x)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[1023 - threadIdx.x];
}
CU
give_up() { echo "declared_launch: $1"; echo "--- occupancy.sh said:"; cat "$out/said.tsv"; exit 1; }
run() { OCCUPANCY_TSV=1 "$root/common/occupancy/occupancy.sh" "$out/two_kernels.cu" test 256 "$limits" > "$out/said.tsv"; }

run
# kernel, threads, registers, shared bytes, spill stores, blocks per SM, binding, occupancy %
grep -q '^declared_dynamic(float\*)	64	[0-9]*	0+dynamic	' "$out/said.tsv" ||
    give_up "the kernel with __launch_bounds__(64) and an extern __shared__ array is not shown as 64 threads, 0+dynamic bytes"
grep -q '^plain_static(float\*)	256	[0-9]*	4096	' "$out/said.tsv" ||
    give_up "the kernel that declares nothing does not take THREADS=256 and its 4096 static bytes"
DYNAMIC_SHARED=100000 run
grep -q '^declared_dynamic(float\*)	64	[0-9]*	100000	0	2	shared memory	' "$out/said.tsv" ||
    give_up "DYNAMIC_SHARED=100000 does not make 100000 bytes, 2 blocks per SM, limited by shared memory"
grep -q '^plain_static(float\*)	256	[0-9]*	4096	' "$out/said.tsv" ||
    give_up "DYNAMIC_SHARED changed the kernel that has no dynamic shared memory"
echo "test-occupancy: a kernel's __launch_bounds__ is its block size, and dynamic shared memory counts only when given"
