#!/usr/bin/env bash
# common/debian_mirror.sh reads the mirror from apt's own sources, in both
# of their forms, skips what is not Debian's main archive, and yields to
# DEBIAN_MIRROR.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
etc=$(mktemp -d)
trap 'rm -rf "$etc"' EXIT
mkdir -p "$etc/sources.list.d"
failed=0
expect() {  # expect WHAT WANTED
    local got
    got=$(env -u DEBIAN_MIRROR APT_ETC="$etc" "$root/common/debian_mirror.sh")
    [ "$got" = "$2" ] && echo "ok   debian_mirror: $1" || { echo "FAIL debian_mirror: $1: got $got, wanted $2"; failed=1; }
}
echo 'deb [arch=amd64 signed-by=/k.gpg] http://mirror.example.org/debian/ bookworm main' > "$etc/sources.list"
expect "a one-line source with options" http://mirror.example.org/debian
: > "$etc/sources.list"
printf 'Types: deb\nURIs: http://archive.ubuntu.com/ubuntu\nSuites: noble noble-updates\n' > "$etc/sources.list.d/ubuntu.sources"
expect "no Debian archive: Debian's own" http://deb.debian.org/debian
printf 'Types: deb\nURIs: http://m.example.net/debian-security\nSuites: trixie-security\n\nTypes: deb-src deb\nURIs: http://m.example.net/debian\nSuites: trixie trixie-updates\n' \
    > "$etc/sources.list.d/debian.sources"
expect "a deb822 stanza after the security archive's" http://m.example.net/debian
[ "$(DEBIAN_MIRROR=http://override/debian/ "$root/common/debian_mirror.sh")" = http://override/debian ] &&
    echo "ok   debian_mirror: DEBIAN_MIRROR overrides" || { echo "FAIL debian_mirror: DEBIAN_MIRROR ignored"; failed=1; }
exit $failed
