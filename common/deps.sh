#!/usr/bin/env bash
# Installs what the kit needs and is missing, with apt-get (as root, or
# through sudo); otherwise prints the exact command and stops.
#
#   common/deps.sh [base|plots|slides|slurm|platforms|gradescope]
#       base: build, check and grade; plots: + gnuplot;
#       gradescope: + zip (make gradescope packs the autograder with it);
#       slides: + pandoc, LaTeX beamer, gnuplot, poppler-utils;
#       slurm: + Slurm's daemons and client, munge;
#       platforms: + debootstrap (make test-platforms: Debian chroots);
#       aarch64: + the aarch64 cross compiler and qemu-user (make test-platforms)
#       locales: + the locales' sources (the tests build a locale that writes
#                1,5 to show the kit's numbers do not depend on it)
#
# The CUDA toolkit is not installed here: without it (and without a GPU)
# every lab runs on the kit's CPU simulator, which needs only gcc and g++.
set -u
want=${1:-base}
missing=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

have_cmd make || missing+=(make)
have_cmd gcc || missing+=(gcc)
have_cmd g++ || missing+=(g++)
have_cmd awk || missing+=(gawk)
have_cmd addr2line || missing+=(binutils)
# The kit's own tests apply the mutants (grader/mutants/*.patch) with patch.
have_cmd patch || missing+=(patch)
# Wanted, not required: clang builds the simulator's check mode (the
# grader's structural tests); without it everything else still works.
optional=()
have_cmd clang++ || optional+=(clang)
# CHECK_PREFIX: an unpacked copy of Check, used as it is.
if [ -z "${CHECK_PREFIX:-}" ] || [ ! -f "$CHECK_PREFIX/include/check.h" ]; then
    have_cmd pkg-config || missing+=(pkg-config)
    pkg-config --exists check 2>/dev/null || missing+=(check)
fi
# Plots want gnuplot; a report without it still has its TSV files.
if [ "$want" = plots ]; then
    have_cmd gnuplot || optional+=(gnuplot-nox)
fi

# Slides (make slides): pandoc and pdflatex with beamer, TikZ/pgf (beamer
# needs it) and Latin Modern fonts (pandoc's template), gnuplot for the
# figures, rsvg-convert for the lessons' own, pdfinfo to count pages.  Required there: a deck is nothing without them.
if [ "$want" = slides ]; then
    have_cmd pandoc || missing+=(pandoc)
    { have_cmd pdflatex && have_cmd kpsewhich && kpsewhich beamer.cls >/dev/null; } || missing+=(texlive-latex-recommended)
    { have_cmd kpsewhich && kpsewhich tikz.sty >/dev/null; } || missing+=(texlive-pictures)
    { have_cmd kpsewhich && kpsewhich lmodern.sty >/dev/null; } || missing+=(lmodern)
    have_cmd gnuplot || missing+=(gnuplot-nox)
    have_cmd pdfinfo || missing+=(poppler-utils)
    have_cmd rsvg-convert || missing+=(librsvg2-bin)
fi

# A single-node Slurm for the cluster grading's test (make test-slurm):
# the controller, the node daemon, the client commands and munge.
if [ "$want" = slurm ]; then
    have_cmd slurmctld || missing+=(slurmctld)
    have_cmd slurmd || missing+=(slurmd)
    have_cmd sbatch || missing+=(slurm-client)
    have_cmd munged || missing+=(munge)
fi

# Other toolchains (make test-platforms): Debian systems built with
# debootstrap, and this machine's clang and g++ 11 as the simulator's compiler.
if [ "$want" = platforms ]; then
    have_cmd debootstrap || missing+=(debootstrap)
    have_cmd clang || missing+=(clang)
    # Debian 12 has it; elsewhere its row of the test is skipped.
    have_cmd g++-11 || optional+=(g++-11)
fi
# make gradescope: the autograder is a zip file.
if [ "$want" = gradescope ]; then
    have_cmd zip || missing+=(zip)
fi
# Optional: without it those tests run in the machine's own locale.
if [ "$want" = locales ]; then
    [ -f /usr/share/i18n/locales/de_DE ] || optional+=(locales)
fi
if [ "$want" = aarch64 ]; then
    have_cmd aarch64-linux-gnu-g++ || missing+=(g++-aarch64-linux-gnu)
    have_cmd qemu-aarch64-static || missing+=(qemu-user-static)
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ]; then
    exit 0
fi
# Without root or sudo, what grading needs beyond the compilers (Check, and
# clang for the structural tests) is downloaded and unpacked inside the kit
# (common/fetch_deps.sh), when nothing else is missing: pkg-config is not
# needed then, the unpacked Check is used through CHECK_PREFIX.
fetch_without_root() {
    local wanted=() package
    for package in "${missing[@]}" "${optional[@]}"; do
        case "$package" in
            check|clang) [[ " ${wanted[*]} " == *" $package "* ]] || wanted+=("$package") ;;
            pkg-config) ;;
            *) return 1 ;;
        esac
    done
    [ ${#wanted[@]} -gt 0 ] && "$(dirname "$0")/fetch_deps.sh" "${wanted[@]}"
}
# One apt-get at a time: make test prepares the platforms' chroots (and the
# packages they need here) while other phases install theirs, and apt
# refuses a second install while one runs.  The kit's own queue on a lock
# (flock -o: the command, and any daemon an install starts, does not hold
# it; -w: nothing waits on it forever); another program's install is waited
# for by apt itself (DPkg::Lock::Timeout).  Without root or flock, or where
# the lock cannot be made, apt-get runs as it is.
apt_lock=/var/lock/matmul-kit-deps.lock
one_at_a_time() {
    if [ "$(id -u)" = 0 ] && have_cmd flock && { [ -e "$apt_lock" ] || : > "$apt_lock"; } 2>/dev/null; then
        flock -o -w 900 "$apt_lock" "$@"
    else
        "$@"
    fi
}
apt_wait=(-o DPkg::Lock::Timeout=600)
# Only optional packages missing: try, and go on without them if that fails.
# The package lists are fetched again only when the install fails (a fresh
# machine may have none).
if [ ${#missing[@]} -eq 0 ]; then
    install_optional() { DEBIAN_FRONTEND=noninteractive one_at_a_time apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends "${optional[@]}" >/dev/null 2>&1; }
    if [ "$(id -u)" = 0 ] && have_cmd apt-get &&
            { install_optional || { one_at_a_time apt-get update -qq >/dev/null 2>&1 && install_optional; }; }; then
        exit 0
    fi
    if [ "$(id -u)" != 0 ] && ! { have_cmd sudo && sudo -n true 2>/dev/null; } && [ "$want" = base ] && fetch_without_root; then
        exit 0
    fi
    for package in "${optional[@]}"; do
        case "$package" in
            clang) why="the simulator's check mode and the grader's structural tests" ;;
            gnuplot-nox) why="the report's figures" ;;
            *) why="the kit's tests that need it say what they skip" ;;
        esac
        echo "deps: $package not installed ($why)" >&2
    done
    echo "      (sudo apt-get install -y ${optional[*]}); everything else works without it" >&2
    exit 0
fi
missing+=("${optional[@]}")
if ! have_cmd apt-get; then
    echo "deps: missing ${missing[*]}; install them with your system's package manager" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    as_root=()
elif have_cmd sudo && sudo -n true 2>/dev/null; then
    as_root=(sudo)
elif fetch_without_root; then
    exit 0
else
    echo "deps: missing ${missing[*]}. Install them with:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
one_at_a_time "${as_root[@]}" apt-get update -qq &&
    one_at_a_time "${as_root[@]}" apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { echo "deps: apt-get could not install ${missing[*]}" >&2; exit 1; }
