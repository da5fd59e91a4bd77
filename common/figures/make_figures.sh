#!/usr/bin/env bash
# The lessons' figures that the kit draws from its own code (the
# solutions' sizes and indexing), remade by `make lessons`; with --check
# (make test-lessons), exit 1 if a committed figure is not what its
# generator now draws.
#
#   common/figures/make_figures.sh [--check]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
check=${1:-}
# generator, its inputs, the figure it makes
figures=(
    "common/figures/warp_requests.sh solutions/01-naive/matmul.cu labs/01-naive/figures/warp-requests.svg"
    "common/figures/whole_matrix_block.sh solutions/03-shared-3x3/matmul.cu reports/cpu-simulator/device_limits.tsv labs/03-shared-3x3/figures/whole-matrix-block.svg"
    "common/figures/register_tile.sh solutions/07-register-tiling/matmul.cu labs/07-register-tiling/figures/register-tile.svg"
    "common/figures/warp_tile.sh solutions/08-warp-tiling/matmul.cu labs/08-warp-tiling/figures/warp-tile.svg"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for entry in "${figures[@]}"; do
    read -r -a words <<< "$entry"
    generator=${words[0]} figure=${words[${#words[@]} - 1]}
    # The student handout has no solutions to draw from: its figures are
    # the ones shipped.
    [ -f "${words[1]}" ] || { echo "make_figures: no ${words[1]} here; $figure kept as it is"; continue; }
    made="$work/$(basename "$figure")"
    "$generator" "${words[@]:1:${#words[@]} - 2}" "$made"
    if [ "$check" = --check ]; then
        cmp -s "$made" "$figure" || { echo "make_figures: $figure is not what $generator draws (run make lessons)"; status=1; }
    elif ! cmp -s "$made" "$figure"; then
        mkdir -p "$(dirname "$figure")" && cp "$made" "$figure" && echo "make_figures: updated $figure"
    fi
done
exit $status
