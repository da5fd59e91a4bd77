#!/bin/sh
# kernel_resources.sh PTXAS_REPORT GPU [PTX]: the C++ table of
# kernel_resources.h for one lab file, from what `nvcc --resource-usage`
# printed building it (lines "Compiling entry function '_Z...' for 'sm_90'"
# then "L bytes stack frame, ..." and "Used N registers, ..., M bytes smem") and from the PTX it kept (".entry _Z...(" then,
# for a kernel with __launch_bounds__, ".maxntid X, Y, Z").  Each kernel is
# found by its mangled name, which the simulator's build of the same source
# gives its function too: a weak reference, so a kernel whose name differs
# there (one in an anonymous namespace, say) is left null and never refused.
set -u
report=${1:?usage: kernel_resources.sh PTXAS_REPORT GPU [PTX]}
gpu=${2:?usage: kernel_resources.sh PTXAS_REPORT GPU [PTX]}
ptx=${3:-/dev/null}
[ -f "$ptx" ] || ptx=/dev/null
echo "// Made by common/sim/kernel_resources.sh from nvcc's report: do not edit."
echo '#include "kernel_resources.h"'
awk -v gpu="$gpu" '
    # The PTX first: the bound on the threads of each kernel, the product of .maxntid.
    FILENAME != report_file && /\.entry / {
        entry = $0; sub(/^.*\.entry[ \t]+/, "", entry); sub(/[ \t(].*$/, "", entry)
        next
    }
    FILENAME != report_file && /^[ \t]*\.maxntid / && entry != "" {
        bound = $0; sub(/^[ \t]*\.maxntid[ \t]+/, "", bound); gsub(/[ \t]/, "", bound)
        split(bound, xyz, ","); max_threads[entry] = xyz[1] * (xyz[2] ? xyz[2] : 1) * (xyz[3] ? xyz[3] : 1)
        next
    }
    FILENAME != report_file { next }
    /Compiling entry function / {
        name = $0; sub(/^.*Compiling entry function .\047?/, "", name); sub(/\047.*$/, "", name)
        frame = 0
        next
    }
    /[0-9]+ bytes stack frame/ && name != "" { frame = $1 + 0 }
    # "Used 40 registers, used 1 barriers, 8192 bytes smem": no smem part when there is none.
    /Used [0-9]+ registers/ && name != "" {
        regs = $0; sub(/^.*Used /, "", regs); sub(/ registers.*$/, "", regs)
        smem = 0
        if ($0 ~ /[0-9]+ bytes smem/) { smem = $0; sub(/ bytes smem.*$/, "", smem); sub(/^.*[^0-9]/, "", smem) }
        kernels[++count] = name; registers[count] = regs; shared[count] = smem; local[count] = frame; name = ""
    }
    END {
        for (i = 1; i <= count; i++)
            printf "extern \"C\" void sim_kernel_%d() __asm__(\"%s\") __attribute__((weak));\n", i, kernels[i]
        print "extern \"C\" const sim::kernel_resources sim_kernel_resources[] = {"
        for (i = 1; i <= count; i++)
            printf "    {reinterpret_cast<const void *>(&sim_kernel_%d), %d, \"%s\", \"%s\", %d, %d, %d},\n", i,
                registers[i], kernels[i], gpu, max_threads[kernels[i]] + 0, shared[i] + 0, local[i] + 0
        print "    {nullptr, 0, nullptr, nullptr, 0, 0, 0}};"
    }' report_file="$report" "$ptx" "$report"
