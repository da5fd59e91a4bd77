#!/usr/bin/env bash
# A locale that writes numbers with a comma (de_DE.UTF-8), built into a
# folder of the tests' own (no root needed, the machine's locales left
# alone): prints the environment that selects it, "LOCPATH=DIR
# LC_ALL=de_DE.UTF-8", or nothing, with why on stderr, where it cannot be
# built (Debian's locales package has its sources: common/deps.sh locales).
#
#   env $(common/tests/comma_locale.sh DIR) COMMAND...
set -u
dir=${1:?usage: comma_locale.sh DIR}
if [ ! -f "$dir/de_DE.UTF-8/LC_NUMERIC" ]; then
    mkdir -p "$dir"
    if ! localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" > "$dir/localedef.log" 2>&1; then
        echo "comma_locale: cannot build de_DE.UTF-8 (no locales package?): $(head -n 1 "$dir/localedef.log")" >&2
        exit 0
    fi
    # LOCPATH replaces the machine's folder of locales: C.UTF-8 must be
    # found there too.
    for c in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8; do
        [ -d "$c" ] && cp -R "$c" "$dir/"
    done
fi
echo "LOCPATH=$dir LC_ALL=de_DE.UTF-8"
