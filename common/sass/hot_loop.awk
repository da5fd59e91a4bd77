# The memory instructions of each kernel's hot loop, from nvdisasm's
# listing with line information (nvdisasm -c -g on a -lineinfo cubin).
#
# The hot loop is the loop (a branch back to an earlier label) with the most
# multiply-add instructions in its body (FFMA, or HMMA on tensor cores); among loops with as many, the shortest, so
# an inner loop wins over the loop around it.  A kernel with no such loop is
# summed whole.  What a student compares between stages lives there: how many
# shared-memory instructions each multiply-add costs, and how wide they are.
#
#   awk -v tsv=1 -f hot_loop.awk listing      one line per kernel:
#       kernel  first_line  last_line  instructions  ffma  lds  lds_bytes  lds_by_width
#       sts  sts_by_width  ldg  ldg_by_width  stg  ldgsts  barriers  hmma  ld
#   (by_width: "4x32 16x8" = 32 of 4 bytes, 8 of 16 bytes; - for none)
#   awk -f hot_loop.awk listing               the same, to read, with the
#       lines of the source each memory instruction came from
#
# Kernel names stay mangled here; the caller demangles them (c++filt).

function width(op,    w) {
    # LDS.128, LDG.E.64.CONSTANT, STS.U8, LDGSTS.E.BYPASS.128 ...: the widest
    # size suffix; none means 32 bits.
    w = 4
    if (op ~ /\.128(\.|$)/) w = 16
    else if (op ~ /\.64(\.|$)/) w = 8
    else if (op ~ /\.(U|S)16(\.|$)/) w = 2
    else if (op ~ /\.(U|S)8(\.|$)/) w = 1
    return w
}

# kind OP: the class of an instruction this summary counts, or "".
function kind(op) {
    if (op ~ /^FFMA(\.|$)/) return "ffma"
    if (op ~ /^HMMA(\.|$)/) return "hmma"
    if (op ~ /^LDS(\.|$)/) return "lds"
    if (op ~ /^STS(\.|$)/) return "sts"
    if (op ~ /^LDGSTS(\.|$)/) return "ldgsts"
    if (op ~ /^LDG(\.|$)/) return "ldg"
    # LD: a generic load, whose pointer the compiler could not place in one
    # memory; the hardware finds shared or global from the address as it runs.
    if (op ~ /^LD(\.|$)/) return "ld"
    if (op ~ /^STG(\.|$)/) return "stg"
    if (op ~ /^BAR\.(SYNC|RED)/) return "bar"
    return ""
}

function start_kernel(name) {
    finish_kernel()
    kernel = name; n = 0; nlabels = 0
    delete label_at; delete op_of; delete line_of; delete addr_of; delete target_of
}

function finish_kernel(    i, j, k, best_i, best_j, best_f, f, a) {
    if (kernel == "") return
    # Loops: a branch at i back to a label at or before it.
    best_f = -1
    for (i = 1; i <= n; i++) {
        if (target_of[i] == "" || !(target_of[i] in label_at)) continue
        j = label_at[target_of[i]]
        if (j > i) continue
        f = 0
        for (k = j; k <= i; k++) if (kind(op_of[k]) == "ffma" || kind(op_of[k]) == "hmma") f++
        if (f > best_f || (f == best_f && i - j < best_j_len)) { best_f = f; best_i = i; best_j = j; best_j_len = i - j }
    }
    if (best_f <= 0) { best_j = 1; best_i = n; whole = 1 } else whole = 0
    report(best_j, best_i)
    kernel = ""
}

# by_width COUNTS WHAT [READABLE]: "16x8 4x32", or "8 of 16 bytes, 32 of 4 bytes".
function by_width(counts, what, readable,    w, s, sep) {
    s = ""; sep = ""
    for (w = 16; w >= 1; w /= 2) if ((what "," w) in counts) {
        s = s sep (readable ? counts[what "," w] " of " w " bytes" : w "x" counts[what "," w]); sep = readable ? ", " : " "
    }
    return s == "" ? "-" : s
}

function paren(s) { return s == "-" ? "" : " (" s ")" }

function report(from, to,    k, c, o, first, last, total, bytes, count, byline, lines, nl, key, l, parts, other, hmma_ops) {
    delete total; delete bytes; delete count; delete byline; nl = 0; hmma_ops = ""
    first = ""; last = ""
    for (k = from; k <= to; k++) {
        o = op_of[k]; c = kind(o)
        if (c == "hmma" && !index(" " hmma_ops " ", " " o " ")) hmma_ops = hmma_ops (hmma_ops == "" ? "" : " ") o
        if (line_of[k] != "") {
            if (first == "" || line_of[k] + 0 < first + 0) first = line_of[k]
            if (last == "" || line_of[k] + 0 > last + 0) last = line_of[k]
        }
        if (o != "NOP") total["all"]++
        if (c == "") continue
        total[c]++
        bytes[c] += width(o)
        count[c "," width(o)]++
        if (c != "ffma" && c != "hmma") {
            key = (line_of[k] == "" ? "?" : line_of[k]) SUBSEP o
            if (!(key in byline)) lines[++nl] = key
            byline[key]++
        }
    }
    if (tsv) {
        printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\n", kernel, (first == "" ? "-" : first), (last == "" ? "-" : last),
            total["all"], total["ffma"], total["lds"], bytes["lds"], by_width(count, "lds"), total["sts"], by_width(count, "sts"),
            total["ldg"], by_width(count, "ldg"), total["stg"], total["ldgsts"], total["bar"], total["hmma"], total["ld"]
        return
    }
    print ""
    print "kernel " kernel ":"
    if (whole) print "  no loop with multiply-adds: the whole kernel" (first == "" ? "" : ", lines " first "-" last)
    if (whole && !total["ffma"] && !total["hmma"])
        print "  (no FFMA at all: a kernel that does not store its result yet does no arithmetic the compiler keeps)"
    else if (!whole || total["ffma"]) print "  hot loop: lines " first "-" last " of the source" (total["ffma"] ? ", " total["ffma"] " FFMA (multiply-adds) per trip" : "")
    # A tensor-core instruction multiplies tiles for the whole warp: on
    # sm_90, HMMA.1684.F32.TF32 is a 16 x 8 x 4 product, 512 multiply-adds
    # (a wmma::mma_sync at m16n16k8 is four of them).
    if (total["hmma"])
        printf "  tensor cores: %d HMMA instructions%s (%s: a warp's multiply-adds on tensor cores)\n", total["hmma"],
            whole ? "" : " per trip", hmma_ops

    printf "  shared loads:   %3d instructions%s, %d bytes per thread\n", total["lds"], paren(by_width(count, "lds", 1)), bytes["lds"]
    if (total["ld"])
        printf "  generic loads:  %3d instructions%s (LD: the compiler could not tell shared memory from global)\n",
            total["ld"], paren(by_width(count, "ld", 1))
    printf "  shared stores:  %3d instructions%s\n", total["sts"], paren(by_width(count, "sts", 1))
    printf "  global loads:   %3d instructions%s%s\n", total["ldg"], paren(by_width(count, "ldg", 1)),
        total["ldgsts"] ? ", and " total["ldgsts"] " global-to-shared copies (LDGSTS, cp.async:" paren(by_width(count, "ldgsts", 1)) ")" : ""
    printf "  global stores:  %3d,  barriers: %d\n", total["stg"], total["bar"]
    printf "  all instructions: %d%s (NOPs aside)\n", total["all"], whole ? "" : " per trip"
    if (total["ffma"] > 0)
        printf "  per multiply-add: %.2f shared load instructions, %.1f shared bytes\n", total["lds"] / total["ffma"], bytes["lds"] / total["ffma"]
    if (nl > 0) {
        print "  where they come from (source line: instruction x how many):"
        # In source order: a stable insertion sort by line number.
        for (l = 2; l <= nl; l++) {
            key = lines[l]; split(key, parts, SUBSEP)
            for (k = l - 1; k >= 1; k--) { split(lines[k], other, SUBSEP); if (other[1] + 0 <= parts[1] + 0) break; lines[k + 1] = lines[k] }
            lines[k + 1] = key
        }
        for (l = 1; l <= nl; l++) {
            split(lines[l], parts, SUBSEP)
            printf "    line %-5s %-28s x%d\n", parts[1], parts[2], byline[lines[l]]
        }
    }
}

BEGIN { kernel = "" }

# //--------------------- .text._Z19matmul_tiled_kernelPKfS0_Pfi ------
/^\/\/-+ \.text\./ {
    name = $2; sub(/^\.text\./, "", name)
    start_kernel(name); line = ""; next
}
# //## File "/path/matmul.cu", line 45  (and "inlined at" ones: the first line counts)
/^[ \t]*\/\/## File / {
    if (match($0, /line [0-9]+/)) line = substr($0, RSTART + 5, RLENGTH - 5)
    next
}
/^\.L_x_[0-9]+:/ { lbl = $1; sub(/:$/, "", lbl); label_at[lbl] = n + 1; next }
# /*0340*/   @!P0 LDS.128 R12, [R5+0x10] ;
kernel != "" && /^[ \t]*\/\*[0-9a-f]+\*\// {
    text = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", text)
    sub(/^@!?U?P[T0-9]+[ \t]+/, "", text)
    split(text, w, /[ \t;]+/)
    n++; op_of[n] = w[1]; line_of[n] = line; target_of[n] = ""
    if (w[1] ~ /^BRA/ && match(text, /\.L_x_[0-9]+/)) target_of[n] = substr(text, RSTART, RLENGTH)
    next
}
END { finish_kernel() }
