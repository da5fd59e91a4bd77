#!/usr/bin/env bash
# What `make grade` needs and the machine lacks, for a user who cannot
# install packages (no root, no sudo: a shared GPU server): Check and clang
# are downloaded from the machine's own apt sources, with whatever they need
# that the system lacks, and unpacked under build/tools/deps, not
# installed. Nothing of the system changes; apt-get works on private lists.
# common/backend.mk puts them to use in every make after this one.
#
#   common/fetch_deps.sh PACKAGE...     (check, clang; Debian or Ubuntu)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/build/tools/deps
apt=$tools/apt
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
    { echo "fetch_deps: needs apt-get and dpkg-deb (Debian or Ubuntu)" >&2; exit 1; }
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$tools/root" "$tools/bin"
# The machine's sources and its installed packages (so only what is missing
# is fetched); lists, cache and lock of its own.
options=(-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o Debug::NoLocking=1 -q)
echo "fetch_deps: downloading $* from this machine's apt sources into build/tools/deps (no root needed)"
apt-get "${options[@]}" update > "$apt/update.log" 2>&1 || { tail -n 5 "$apt/update.log" >&2; exit 1; }
# The packages and everything they depend on, less what is installed.
needed=()
while read -r package; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || needed+=("$package")
done < <(apt-cache "${options[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
             --no-replaces --no-enhances "$@" | grep -v '^[ <]' | grep -v : | sort -u)
rm -rf "$apt/debs" && mkdir -p "$apt/debs"
(cd "$apt/debs" && apt-get "${options[@]}" download "${needed[@]}") > "$apt/download.log" 2>&1 ||
    { tail -n 5 "$apt/download.log" >&2; exit 1; }
for deb in "$apt"/debs/*.deb; do
    dpkg-deb -x "$deb" "$tools/root"
done
echo "fetch_deps: unpacked ${needed[*]}"
rm -rf "$apt/debs"
# clang's programs, each behind a wrapper that finds the libraries unpacked
# beside it (libLLVM, libclang-cpp) before the system's.
libs=$tools/root/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for llvm in "$tools"/root/usr/lib/llvm-*/; do
    [ -x "$llvm/bin/clang" ] || continue
    for program in clang clang++; do
        printf '#!/bin/sh\n# made by common/fetch_deps.sh\nLD_LIBRARY_PATH=%s:%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec %s "$@"\n' \
            "$libs" "${llvm}lib" "${llvm}bin/$program" > "$tools/bin/$program"
        chmod +x "$tools/bin/$program"
    done
done
[ -f "$tools/root/usr/include/check.h" ] && echo "fetch_deps: Check in build/tools/deps/root/usr"
[ -x "$tools/bin/clang++" ] && echo "fetch_deps: $("$tools/bin/clang++" --version | head -n 1) in build/tools/deps/bin"
exit 0
