# What the compiler knows of each kernel's launch, from its PTX (nvcc -ptx):
# one line per kernel, tab-separated: its mangled name, its block size if it
# declares one (__launch_bounds__ gives ".maxntid X, Y, Z"; "-" if not),
# and 1 if it uses dynamic shared memory (an `extern __shared__` array),
# whose size the launch sets and no compiler can see, else 0.
#
#   awk -f common/occupancy/ptx_kernels.awk lab.ptx
# An extern shared array is declared once at the file's level and named in
# the body of each kernel that uses it.
/^[ \t]*\.extern[ \t]+\.shared/ {
    name = $NF
    sub(/\[.*$/, "", name)
    sub(/;$/, "", name)
    dynamic_names[name] = 1
    next
}
/\.entry[ \t]/ {
    finish()
    kernel = $0
    sub(/^.*\.entry[ \t]+/, "", kernel)
    sub(/[ \t]*\(.*$/, "", kernel)
    threads = "-"
    dynamic = 0
    next
}
kernel != "" && /^[ \t]*\.maxntid[ \t]/ {
    line = $0
    sub(/^[ \t]*\.maxntid[ \t]+/, "", line)
    n = split(line, dims, /[ \t]*,[ \t]*/)
    threads = 1
    for (i = 1; i <= n; i++)
        threads *= dims[i] + 0
    next
}
kernel != "" && !dynamic {
    for (name in dynamic_names)
        if (index($0, name) && match($0, "(^|[^A-Za-z0-9_$])" name "([^A-Za-z0-9_$]|$)"))
            dynamic = 1
}
function finish() {
    if (kernel != "")
        print kernel "\t" threads "\t" dynamic
    kernel = ""
}
END { finish() }
