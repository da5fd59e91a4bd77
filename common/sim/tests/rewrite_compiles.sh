#!/bin/sh
# End-to-end check of the launch rewriter: the rewritten sample must be
# valid C++, keep its line numbers, and a broken launch must fail cleanly.
# Run from the repo root:  sh common/sim/tests/rewrite_compiles.sh [BUILD_DIR]
set -u

build=${1:-build}
data=common/sim/tests/data
failures=0

. common/tests/lib.sh   # fail

if [ ! -f "$data/launch_forms.cu" ]; then
    echo "rewrite_compiles.sh: run it from the repo root" >&2
    exit 1
fi
mkdir -p "$build" || exit 1

if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -I common/sim -o "$build/rewrite_launch" \
        common/sim/rewrite_launch_main.c common/sim/rewrite_launch.c; then
    echo "FAIL: building rewrite_launch" >&2
    exit 1
fi

# 1. Every launch form in the sample becomes C++ that g++ accepts.
out="$build/launch_forms.cpp"
if "$build/rewrite_launch" "$data/launch_forms.cu" "$out"; then
    in_lines=$(wc -l < "$data/launch_forms.cu")
    out_lines=$(wc -l < "$out")
    [ "$out_lines" -eq $((in_lines + 1)) ] ||
        fail "launch_forms: $in_lines lines in, $out_lines out (want one more, the #line)"
    grep -q '"add_one<<<1, 1>>>(x, n) is a launch"' "$out" ||
        fail "launch_forms: the string holding '<<<' was changed"
    if grep -v '"' "$out" | grep -q '<<<'; then
        fail "launch_forms: a launch was left unrewritten"
    fi
    ${CXX_SIM:-g++} -std=c++17 -fsyntax-only -include "$data/fake_sim.h" "$out" ||
        fail "launch_forms: rewritten file does not compile (errors above)"
else
    fail "launch_forms: rewrite_launch exited nonzero"
fi

# 2. A compiler error after a multi-line launch points at the original file
#    and line.
printf 'int main()\n{\n    k<<<1,\n        2>>>(0);\n    int x = ;\n}\n' > "$build/line_check.cu"
if "$build/rewrite_launch" "$build/line_check.cu" "$build/line_check.cpp" shown/line_check.cu; then
    errors=$(${CXX_SIM:-g++} -std=c++17 -fsyntax-only "$build/line_check.cpp" 2>&1)
    case $errors in
    *"shown/line_check.cu:5:"*) ;;
    *) fail "line_check: g++ did not report shown/line_check.cu:5; it said: $errors" ;;
    esac
else
    fail "line_check: rewrite_launch exited nonzero"
fi

# 3. An unclosed '<<<' is reported at its line, exits 1, and leaves no output
#    (and no temporary file) behind.
printf 'void f()\n{\n    k<<<1, 1(x);\n}\n' > "$build/unmatched.cu"
rm -f "$build/unmatched.cpp"
message=$("$build/rewrite_launch" "$build/unmatched.cu" "$build/unmatched.cpp" 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "unmatched: exit status $status, want 1"
[ "$message" = "$build/unmatched.cu:3: '<<<' has no matching '>>>'" ] ||
    fail "unmatched: message was: $message"
for leftover in "$build"/unmatched.cpp*; do
    [ -e "$leftover" ] && fail "unmatched: left $leftover behind"
done

if [ "$failures" -ne 0 ]; then
    echo "rewrite_compiles: $failures check(s) failed" >&2
    exit 1
fi
echo "rewrite_compiles: all checks passed"
