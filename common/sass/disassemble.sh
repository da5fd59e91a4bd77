#!/usr/bin/env bash
# The machine code (SASS) of a cubin, with the source line of each
# instruction: nvdisasm -c -g.
#
#   common/sass/disassemble.sh CUBIN
#
# nvdisasm comes from, in this order: NVDISASM=path; the CUDA toolkit beside
# nvcc; PATH; build/tools (common/sass/fetch_nvdisasm.sh puts Debian's there).
# Exit status 3, with what to install, when there is none.
#
# CUDA 13 writes cubins in a newer ELF layout (ABI version 8: the
# architecture moved within e_flags) than the disassemblers of CUDA 11 and
# 12 read.  The instructions themselves are the GPU's and do not change, so
# for such a disassembler the header alone is rewritten to the older layout,
# on a copy.
set -u
cubin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)

find_nvdisasm() {
    local nvcc candidate
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    for candidate in "${NVDISASM:-}" "$(dirname "$nvcc")/nvdisasm" "$(command -v nvdisasm)" \
        "$root/build/tools/nvdisasm/usr/bin/nvdisasm"; do
        [ -n "$candidate" ] && [ -x "$candidate" ] && { echo "$candidate"; return 0; }
    done
    return 1
}

if ! nvdisasm=$(find_nvdisasm); then
    echo "sass: needs nvdisasm, the CUDA toolkit's disassembler, and this toolkit has none." >&2
    echo "      Install the toolkit's cuda-nvdisasm package, or run common/sass/fetch_nvdisasm.sh" >&2
    echo "      (Debian's, into build/tools; make test does that itself)." >&2
    exit 3
fi

# byte OFFSET: one byte of the cubin, as a number.
byte() { od -An -tu1 -j "$1" -N1 "$cubin" | tr -d ' '; }

listing=$(mktemp)
trap 'rm -f "$listing" "$listing.cubin"' EXIT
if "$nvdisasm" -c -g "$cubin" > "$listing" 2>&1; then
    cat "$listing"
    exit 0
fi
# The newer layout: ELF OS/ABI 0x41 (CUDA), ABI version 8, and the SM in
# bits 8-15 of e_flags (offset 0x30).  The older one: ABI version 7, the SM
# in bits 0-7 and again as the virtual architecture in bits 16-23, plus
# 0x500 (64-bit addresses, unified texture mode).
if [ "$(byte 7)" = 65 ] && [ "$(byte 8)" = 8 ]; then
    sm=$(byte 49)
    cp "$cubin" "$listing.cubin"
    printf '\007' | dd of="$listing.cubin" bs=1 seek=8 conv=notrunc status=none
    printf "\\$(printf %03o "$sm")\\005\\$(printf %03o "$sm")\\000" |
        dd of="$listing.cubin" bs=1 seek=48 conv=notrunc status=none
    if "$nvdisasm" -c -g "$listing.cubin" > "$listing" 2>&1; then
        cat "$listing"
        exit 0
    fi
fi
echo "sass: $nvdisasm could not read $cubin:" >&2
head -n 5 "$listing" >&2
exit 1
