#!/usr/bin/env bash
# The Debian package mirror this machine's apt uses, for the kit's own
# downloads (debootstrap's chroots, Debian's nvdisasm): the first source of
# Debian's main archive in /etc/apt/sources.list and sources.list.d (one-line
# "deb URI suite..." entries and deb822 "URIs:" stanzas alike), so a machine
# behind a local mirror or a proxy is served by it. DEBIAN_MIRROR overrides;
# a machine whose apt knows no Debian archive (Ubuntu's, say) gets
# Debian's own, deb.debian.org.
#
#   common/debian_mirror.sh            prints the mirror's URI, no trailing slash
set -u
if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "${DEBIAN_MIRROR%/}"; exit 0; fi
etc=${APT_ETC:-/etc/apt}
{
    [ -f "$etc/sources.list" ] && cat "$etc/sources.list"
    for f in "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do [ -f "$f" ] && cat "$f"; echo; done
} 2>/dev/null | awk '
    # A Debian archive: its suites are Debian codenames or stable/testing/
    # sid, and it is not the security archive (whose layout differs).
    function debian(suite) { return suite ~ /^(buster|bullseye|bookworm|trixie|forky|duke|sid|stable|oldstable|testing|unstable)(-updates|-backports)?$/ }
    function candidate(uri, suite) { if (uri !~ /security/ && debian(suite) && !found) { sub(/\/$/, "", uri); print uri; found = 1 } }
    /^[ \t]*#/ { next }
    # One-line form: deb [options] URI suite components...
    $1 == "deb" { i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/ && i < NF) i++; if ($i ~ /^\[/ || $i ~ /\]$/) i++; candidate($i, $(i + 1)); next }
    # deb822 stanzas, separated by blank lines.
    /^[ \t]*$/ { if (uris != "" && types ~ /(^| )deb( |$)/) { n = split(uris, u, " "); split(suites, s, " "); for (j = 1; j <= n; j++) candidate(u[j], s[1]) } uris = suites = types = ""; next }
    $1 == "URIs:" { $1 = ""; uris = $0 }
    $1 == "Suites:" { $1 = ""; suites = $0; sub(/^ /, "", suites) }
    $1 == "Types:" { $1 = ""; types = $0 }
    END { if (uris != "" && types ~ /(^| )deb( |$)/) { n = split(uris, u, " "); split(suites, s, " "); for (j = 1; j <= n; j++) candidate(u[j], s[1]) }
          if (!found) print "http://deb.debian.org/debian" }'
