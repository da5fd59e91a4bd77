#!/usr/bin/env bash
# `make test-nvcc`: the occupancy API's program for every stage's solution,
# built for a GPU and run on the simulator, which must answer for each
# kernel.  A stage per core at once (nvcc is single-threaded); the verdicts
# in stage order.
#
#   common/occupancy/tests/api_every_solution.sh OUT_DIR
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?usage: api_every_solution.sh OUT_DIR}
cd "$root" || exit 2

# one_stage STAGE: its GPU build, then its run on the simulator; the
# simulator's answers in OUT_DIR/occupancy_api_sim.STAGE.txt, and a line
# "STAGE ok" or what went wrong in OUT_DIR/occupancy_api.STAGE.verdict.
one_stage() {
    local s=$1 answers="$out/occupancy_api_sim.$1.txt" verdict="$out/occupancy_api.$1.verdict"
    if ! common/occupancy/occupancy_api.sh "solutions/$s/matmul.cu" 256 "$out/occupancy_api/$s" --build > "$verdict" 2>&1; then
        echo "FAIL the occupancy API's program for $s does not build for a GPU" >> "$verdict"
    elif ! common/occupancy/occupancy_api.sh "solutions/$s/matmul.cu" 256 "$out/occupancy_api_sim/$s" --simulator \
            > "$answers" 2>&1; then
        { echo "FAIL the occupancy API's program for $s does not run on the simulator:"; cat "$answers"; } >> "$verdict"
    elif ! grep -qE '	[0-9]+	[0-9]+	[0-9]+$' "$answers"; then
        { echo "FAIL the simulator's occupancy API gave no answer for $s:"; cat "$answers"; } >> "$verdict"
    else
        echo "ok" > "$verdict"
    fi
}
export -f one_stage
export out

mkdir -p "$out"
stages=$(cd solutions && ls -d [0-9]*/ | tr -d /)
echo "$stages" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} bash -c 'one_stage "$1"' _ {}
status=0
for s in $stages; do
    if [ "$(cat "$out/occupancy_api.$s.verdict" 2>/dev/null)" != ok ]; then
        cat "$out/occupancy_api.$s.verdict" 2>/dev/null || echo "FAIL the occupancy API's program for $s: no verdict"
        status=1
    fi
done
exit $status
