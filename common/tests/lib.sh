# shellcheck shell=bash
# Sourced by the kit's test scripts: what they share.
#
#   fail MESSAGE...   says "FAIL MESSAGE" and counts it in $failures, which
#                     the script reads at its end for its exit status

fail() { echo "FAIL $*"; failures=$((failures + 1)); }
