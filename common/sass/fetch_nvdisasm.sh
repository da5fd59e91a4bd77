#!/usr/bin/env bash
# nvdisasm for a CUDA toolkit that lacks it (a compiler-only install has
# nvcc and ptxas but no disassembler): Debian 13's nvidia-cuda-toolkit
# package (CUDA 12.4, from the non-free section) is downloaded, not
# installed, and only its nvdisasm unpacked into build/tools/nvdisasm.
# Not Debian 12's (CUDA 11.8): on some of CUDA 13's sm_90 kernels (stage
# 09's, with 16-byte copies) it leaves out the label a loop branches back
# to, so make sass could not find the hot loop and counted the whole
# kernel. 12.4's asks for nothing newer than glibc 2.7 of the system.
# No root needed and nothing of the system changed: apt-get works on a
# private list of sources under build/tools/apt.
#
#   common/sass/fetch_nvdisasm.sh       (x86-64 only; about 85 MB to download)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$root/build/tools/nvdisasm
apt=$root/build/tools/apt
# One fetched before (11.8) is replaced.
if [ -x "$dest/usr/bin/nvdisasm" ]; then
    "$dest/usr/bin/nvdisasm" --version | grep -q 'release 12\.4' && exit 0
    rm -rf "$dest"
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
    { echo "fetch_nvdisasm: needs apt-get and dpkg-deb (Debian or Ubuntu)" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "fetch_nvdisasm: Debian's nvdisasm is built for x86-64 only" >&2; exit 1; }

# Verified as apt verifies Debian's own packages, never taken on trust.
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
    { echo "fetch_nvdisasm: needs Debian's archive keyring to verify the download: apt-get install debian-archive-keyring" >&2; exit 1; }
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dest"
# From the Debian mirror this machine's apt uses (common/debian_mirror.sh).
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $("$root/common/debian_mirror.sh") trixie non-free" \
    > "$apt/sources.list"
options=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o Debug::NoLocking=1 -q)
echo "fetch_nvdisasm: downloading Debian's nvidia-cuda-toolkit for its nvdisasm"
apt-get "${options[@]}" update > "$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; exit 1; }
(cd "$apt" && apt-get "${options[@]}" download nvidia-cuda-toolkit > "$apt/download.log" 2>&1) ||
    { cat "$apt/download.log" >&2; exit 1; }
dpkg-deb --fsys-tarfile "$apt"/nvidia-cuda-toolkit_*.deb | tar -x -C "$dest" ./usr/bin/nvdisasm
rm -f "$apt"/nvidia-cuda-toolkit_*.deb
"$dest/usr/bin/nvdisasm" --version | tail -n 1
