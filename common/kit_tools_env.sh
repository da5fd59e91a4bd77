# shellcheck shell=sh
# Sourced, with KIT_ROOT set to the kit's folder: puts what
# common/fetch_deps.sh unpacked under build/tools/deps (Check, clang, for a
# user without root) to use when it is there: its clang first on PATH, its
# Check through CHECK_PREFIX (unless one is set already).  common/backend.mk
# does the same for make's own commands.
if [ -d "$KIT_ROOT/build/tools/deps/bin" ]; then
    case ":$PATH:" in *":$KIT_ROOT/build/tools/deps/bin:"*) ;; *) PATH=$KIT_ROOT/build/tools/deps/bin:$PATH; export PATH ;; esac
fi
if [ -z "${CHECK_PREFIX:-}" ] && [ -f "$KIT_ROOT/build/tools/deps/root/usr/include/check.h" ]; then
    CHECK_PREFIX=$KIT_ROOT/build/tools/deps/root/usr; export CHECK_PREFIX
fi
