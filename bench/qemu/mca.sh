#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/qemu/mca.sh - modelled cycles per ML-KEM operation and per hot
# kernel on LLVM's AArch64 scheduling models (llvm-mca), from the
# instruction traces bench/qemu/insn_plugin.c records under qemu-aarch64.
#
# Usage: bench/qemu/mca.sh [options]
#   --build DIR      a build tree with bench/qemu/icount_driver (default
#                    build/aarch64-qemu; aarch64 only)
#   --backends LIST  default: portable neon neon-sha3 neon-sha3x2
#   --peer NAME=PROG another program of the driver protocol (what
#                    bench/qemu/mlkem-native.sh prints); repeatable
#   --cpus LIST      llvm-mca -mcpu names (default neoverse-n2)
#   --bits N         parameter set (default 768)
#   --no-kernels     skip the per-kernel table
#   --no-ops         skip the per-operation table (kernels only: quick)
#   --weighted       instead of simulating each whole operation, model the
#                    first call of every function holding at least 0.5% of
#                    an operation's instructions, and charge each function's
#                    instructions in the operation at that call's cycles per
#                    instruction (the rest at the modelled functions' mean):
#                    about 20 s per model and implementation on a 2-core
#                    VM, far less than whole operations, so the default
#                    --cpus becomes one name per distinct LLVM 16 model:
#                    neoverse-n2 cortex-a57 cortex-a55 cortex-a53 ampere1
#                    cyclone exynos-m5 falkor kryo thunderx2t99
#                    thunderx3t110 tsv110 a64fx
#   --hot REGEX      the kernels of the per-kernel table (an awk regular
#                    expression on function names; default: the Keccak
#                    permutations, NTT, NTT^-1, MultiplyNTTs, rejection)
# Environment: MCA_KEEP (a folder: keep each kernel's llvm-mca input there
# as <implementation>.<function>.s), LLVM_MCA (default llvm-mca-16, else
# /usr/lib/llvm-16/bin/llvm-mca: Debian 12's llvm-16; llvm 14's has no
# Neoverse N2 model).
#
# Method. For each operation the driver runs it once (after a warm-up)
# under qemu-aarch64 -cpu max,sve=off (so libc's string functions are its
# Advanced SIMD ones, which every model knows); the plugin writes the
# address of every instruction executed in that call, in order. The trace
# becomes a straight-line program (each address replaced by its
# disassembly from objdump; calls become an ADR writing x30, since llvm-mca
# charges a call 100 cycles; other branches stay, their targets one dummy
# label) and llvm-mca simulates it once: that is the operation's modelled
# cycle count. For the per-kernel table, the first call of each hot
# kernel (its first run of consecutive instructions from its entry) is
# simulated 10 times back to back, cycles divided by 10.
# What the model leaves out: caches and memory dependencies (every load
# hits L1 and no load waits for an older store), branch prediction and
# instruction fetch; the schedule of the core itself is only as good as
# LLVM's description of it. Neoverse V1, V2 and Cortex-X2 take the N2
# model in LLVM 16, Neoverse N1 and Cortex-A72 the Cortex-A57 one, and
# apple-m1 the Cyclone (Apple A7) one. See docs/aarch64.md.
set -euo pipefail

me=mca
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build/aarch64-qemu
backends="portable neon neon-sha3 neon-sha3x2"
cpus=neoverse-n2
bits=768
kernels=1
opstab=1
weighted=0
cpus_set=0
# One -mcpu name per distinct AArch64 scheduling model of LLVM 16 (names
# whose llvm-mca results are identical are one model; docs/aarch64.md).
weighted_cpus="neoverse-n2 cortex-a57 cortex-a55 cortex-a53 ampere1 cyclone exynos-m5 falkor kryo thunderx2t99 thunderx3t110 tsv110 a64fx"
hot=""
peers=()
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --peer) peers+=("$2"); shift 2 ;;
    --cpus) cpus=$2; cpus_set=1; shift 2 ;;
    --weighted) weighted=1; shift ;;
    --bits) bits=$2; shift 2 ;;
    --no-kernels) kernels=0; shift ;;
    --no-ops) opstab=0; shift ;;
    --hot) hot=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) die "unknown argument $1 (--help)" ;;
    esac
done

if [ "$weighted" -eq 1 ]; then
    opstab=0
    [ "$cpus_set" -eq 1 ] || cpus=$weighted_cpus
fi
mca=${LLVM_MCA:-$(command -v llvm-mca-16 || echo /usr/lib/llvm-16/bin/llvm-mca)}
[ -x "$mca" ] || die "no llvm-mca 16 (Debian: apt-get install llvm-16)"
drv=$build/bench/qemu/icount_driver
[ -x "$drv" ] || die "no $drv"
qemu=$(command -v qemu-aarch64) || die "no qemu-aarch64"
objdump=$(command -v aarch64-linux-gnu-objdump) || die "no aarch64-linux-gnu-objdump"

# The plugin, as icount.sh builds it.
"$here/icount.sh" --build "$build" --backends portable >/dev/null
plugin=$build/bench/qemu/insn_plugin.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The hot kernels of the per-kernel table (function-name patterns).
[ -n "$hot" ] || hot='(keccak_x4_lanes|x2_permute|f1600|ntt|intt|multiply_ntts|basemul|rej)[a-z0-9_]*_(portable|neon|sha3|sha3x2|scalar|asm)$|^x2_permute$'

# dis PROG OUT: "address<TAB>function<TAB>instruction" for every
# instruction; the function is the sized symbol (nm -S) holding it, so the
# local labels of assembly files do not split their functions.
dis() {
    "$objdump" -d --no-show-raw-insn "$1" >"$tmp/objdump"
    "${objdump%objdump}nm" -S --defined-only "$1" >"$tmp/nm"
    python3 - "$tmp/objdump" "$tmp/nm" "$2" <<'PY'
import bisect, re, sys
objdump, nm, out = sys.argv[1:4]
syms = []
for line in open(nm):
    f = line.split()
    if len(f) == 4 and f[2] in "tTwW" and int(f[1], 16) > 0:
        syms.append((int(f[0], 16), int(f[1], 16), f[3]))
syms.sort()
starts = [s[0] for s in syms]
insn = re.compile(r"^ *([0-9a-f]+):\t([^\t]*)(?:\t(.*))?$")
with open(out, "w") as o:
    for line in open(objdump):
        m = insn.match(line.rstrip("\n"))
        if not m:
            continue
        a = int(m.group(1), 16)
        text = m.group(2) + (" " + m.group(3) if m.group(3) else "")
        text = re.sub(r"\s*//.*$", "", text).strip()
        i = bisect.bisect_right(starts, a) - 1
        fn = syms[i][2] if i >= 0 and a < syms[i][0] + syms[i][1] else "?"
        o.write("%x\t%s\t%s\n" % (a, fn, text))
PY
}

# asm DIS TRACE: the trace as llvm-mca input on stdout (see Method).
asm() {
    echo ".Ltgt:"
    awk -F'\t' 'NR == FNR { d[$1] = $3; next }
        {
            x = d[$1]
            if (x ~ /^(bl|blr)[ \t]/) x = "adr x30, .Ltgt"
            else if (x ~ /</) sub(/[0-9a-f]+ <[^>]*>/, ".Ltgt", x)
            print "\t" x
        }' "$1" "$2"
}

# cycles CPU FILE ITER: llvm-mca's total cycles.
cycles() {
    "$mca" -mtriple=aarch64-linux-gnu -mcpu="$1" -mattr=+sha3,+crypto \
        -iterations="$3" "$2" 2>"$tmp/mca.err" |
        awk '/^Total Cycles:/ { print $3 }' | grep . ||
        { head -5 "$tmp/mca.err" >&2; die "llvm-mca failed on $2"; }
}

# first_calls TRACE REGEX: TRACE.k.<function> for the first call of every
# function matching REGEX (its first run of consecutive instructions from
# its entry) and TRACE.calls (function, calls).
first_calls() {
    awk -F'\t' -v hot="$2" 'NR == FNR { f[$1] = $2; if (!($2 in entry)) entry[$2] = $1; next }
        {
            fn = f[$1]
            if (fn != prev) {
                if (out != "") { done[prev] = 1; close(out) }
                out = ""
                if (fn ~ hot && $1 == entry[fn]) { calls[fn]++; if (!(fn in done)) out = FILENAME ".k." fn }
                prev = fn
            }
            if (out != "") print $1 > out
        }
        END { for (k in calls) print k "\t" calls[k] > (FILENAME ".calls") }' \
        "$tmp/dis" "$1"
}

# weigh NAME: the --weighted table rows of one implementation, from the
# three traces in $tmp.
wtab=""
weigh() {
    local op fn n ins cpu c
    for op in $ops; do
        awk -F'\t' 'NR == FNR { f[$1] = $2; next } { n[f[$1]]++ } END { for (k in n) print k "\t" n[k] }' \
            "$tmp/dis" "$tmp/$op.trace" >"$tmp/$op.fn"
    done
    # functions holding at least 0.5% of some operation's instructions
    awk -F'\t' 'FNR == 1 { file++ } { n[file, $1] = $2; tot[file] += $2; fns[$1] = 1 }
        END { for (f in fns) for (i = 1; i <= file; i++)
                  if (f != "?" && n[i, f] * 200 >= tot[i]) { print f; break } }' \
        "$tmp"/keygen.fn "$tmp"/encaps.fn "$tmp"/decaps.fn >"$tmp/sel"
    local re
    re="^($(paste -sd'|' "$tmp/sel"))\$"
    cat "$tmp"/keygen.trace "$tmp"/encaps.trace "$tmp"/decaps.trace >"$tmp/w.trace"
    rm -f "$tmp"/w.trace.k.*
    first_calls "$tmp/w.trace" "$re"
    : >"$tmp/cpi"
    for fn in $(cat "$tmp/sel"); do
        [ -s "$tmp/w.trace.k.$fn" ] || continue
        asm "$tmp/dis" "$tmp/w.trace.k.$fn" >"$tmp/w.s"
        ins=$(wc -l <"$tmp/w.trace.k.$fn")
        for cpu in $cpus; do
            # a model without an instruction of fn (e.g. SHA3 on the older
            # cores) leaves fn at the mean CPI: coverage shows it
            c=$(cycles "$cpu" "$tmp/w.s" 10 2>/dev/null) || continue
            printf '%s\t%s\t%s\t%s\n' "$cpu" "$fn" "$ins" "$c" >>"$tmp/cpi"
        done
    done
    for cpu in $cpus; do
        row="| $name | $cpu |"
        local sum=0 v
        for op in $ops; do
            # cycles = sum over modelled functions of instructions x CPI,
            # the rest at their mean CPI; coverage in brackets
            v=$(awk -F'\t' -v cpu="$cpu" '
                NR == FNR { if ($1 == cpu) { cpi[$2] = $4 / 10 / $3 }; next }
                { n = $2; all += n; if ($1 in cpi) { cyc += n * cpi[$1]; cov += n } }
                END { mean = cov ? cyc / cov : 1; printf "%d (%.0f%%)", cyc + (all - cov) * mean, 100 * cov / all }' \
                "$tmp/cpi" "$tmp/$op.fn")
            row="$row $v |"
            sum=$((sum + ${v%% *}))
        done
        wtab="$wtab$row $sum |"$'\n'
    done
}

ops="keygen encaps decaps"
progs=()
for be in $backends; do progs+=("$be=$drv"); done
progs+=("${peers[@]}")

if [ "$opstab" -eq 1 ]; then
    printf '\nML-KEM-%s, modelled cycles per operation (llvm-mca 16; instructions in brackets)\n\n' "$bits"
    printf '| implementation | model | keygen | encaps | decaps | K+E+D |\n|---|---|---:|---:|---:|---:|\n'
fi
ktab=""
for p in "${progs[@]}"; do
    name=${p%%=*} prog=${p#*=}
    dis "$prog" "$tmp/dis"
    for op in $ops; do
        MLKEM_BACKEND=$name "$qemu" -cpu max,sve=off \
            -plugin "$plugin,trace=$op,traceout=$tmp/$op.trace" \
            "$prog" "$bits" 1 >"$tmp/out" 2>"$tmp/err" ||
            { cat "$tmp/err" >&2; die "$name: $prog failed"; }
        case $name in
        mlkem-native*) ;;
        *) grep -qx "backend $name" "$tmp/out" || die "MLKEM_BACKEND=$name ran $(head -1 "$tmp/out")" ;;
        esac
        asm "$tmp/dis" "$tmp/$op.trace" >"$tmp/$op.s"
    done
    for cpu in $cpus; do
        [ "$opstab" -eq 1 ] || continue
        printf '| %s | %s |' "$name" "$cpu"
        sum=0 isum=0
        for op in $ops; do
            c=$(cycles "$cpu" "$tmp/$op.s" 1)
            i=$(wc -l <"$tmp/$op.trace")
            printf ' %s (%s) |' "$c" "$i"
            sum=$((sum + c)) isum=$((isum + i))
        done
        printf ' %s (%s) |\n' "$sum" "$isum"
    done
    [ "$weighted" -eq 0 ] || weigh "$name"
    [ "$kernels" -eq 1 ] || continue
    # Per kernel: calls per K+E+D (entries into the function) and the first
    # call's instructions, modelled.
    cat "$tmp"/keygen.trace "$tmp"/encaps.trace "$tmp"/decaps.trace >"$tmp/all.trace"
    first_calls "$tmp/all.trace" "$hot"
    while IFS=$'\t' read -r fn n; do
        kt="$tmp/all.trace.k.$fn"
        [ -s "$kt" ] || continue
        asm "$tmp/dis" "$kt" >"$tmp/k.s"
        [ -z "${MCA_KEEP:-}" ] || cp "$tmp/k.s" "$MCA_KEEP/$name.$fn.s"
        ins=$(wc -l <"$kt")
        row="| $name | $fn | $n | $ins |"
        for cpu in $cpus; do
            c=$(cycles "$cpu" "$tmp/k.s" 10)
            row="$row $((c / 10)) |"
        done
        ktab="$ktab$row"$'\n'
    done <"$tmp/all.trace.calls"
done

if [ "$kernels" -eq 1 ]; then
    printf '\nHot kernels: calls per K+E+D, instructions and modelled cycles of the first call (10 back to back)\n\n'
    printf '| implementation | function | calls | instructions |'
    for cpu in $cpus; do printf ' %s cycles |' "$cpu"; done
    printf '\n|---|---|---:|---:|'
    for cpu in $cpus; do printf -- '---:|'; done
    printf '\n%s' "$ktab"
fi
if [ "$weighted" -eq 1 ]; then
    printf '\nML-KEM-%s, modelled cycles per operation, weighted (each function'"'"'s instructions at its first call'"'"'s modelled CPI; instructions covered by modelled functions in brackets)\n\n' "$bits"
    printf '| implementation | model | keygen | encaps | decaps | K+E+D |\n|---|---|---:|---:|---:|---:|\n%s' "$wtab"
fi
