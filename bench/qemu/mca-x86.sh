#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/qemu/mca-x86.sh - modelled cycles of the AVX-512 Keccak
# permutations (x4 on ymm with AVX-512VL, x8 on zmm) on LLVM's x86
# scheduling models (llvm-mca 16): the figures behind arch/dispatch.c's
# Intel grouping (x8_min), for CPUs nobody here can run.
#
# Usage: bench/qemu/mca-x86.sh [--cpus LIST] [--cc COMPILER]
#   --cpus LIST   llvm-mca -mcpu names (default: skylake-avx512 cascadelake
#                 icelake-server tigerlake sapphirerapids znver4)
#   --cc CC       the compiler for the two kernel files (default gcc: the
#                 default preset's; clang-14 gives the same instructions,
#                 the rounds being inline assembly)
# Environment: LLVM_MCA (default llvm-mca-16)
#
# Method. arch/avx512/keccak_x4_avx512vl.c and keccak_x8_avx512.c are
# compiled with the flags arch/avx512/CMakeLists.txt gives them; each
# permute function is disassembled and its one loop (four rounds per
# iteration, arch/gen_keccak_rounds.py) unrolled by its trip count (the
# immediate moved into the counter before the loop), so llvm-mca sees one
# call as straight-line code: state loads, 24 rounds, state stores. That
# is simulated 10 times back to back (a chain of calls on the same state,
# as kem/lanes.c's blocks are) and the cycles divided by 10; beside it
# llvm-mca's throughput bound (ports only, no latencies: what independent
# calls overlapping perfectly would approach). A CPU name
# whose results equal another's shares its model (the second table).
set -euo pipefail

me=mca-x86
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cpus="skylake-avx512 cascadelake icelake-server tigerlake sapphirerapids znver4"
cc=gcc
while [ $# -gt 0 ]; do
    case $1 in
    --cpus) cpus=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) die "unknown argument $1 (--help)" ;;
    esac
done
mca=${LLVM_MCA:-$(command -v llvm-mca-16 || echo /usr/lib/llvm-16/bin/llvm-mca)}
[ -x "$mca" ] || die "no llvm-mca 16 (Debian: apt-get install llvm-16)"
tmp=$(mktemp -d)
trap '[ -z "${MCA_KEEP:-}" ] || cp "$tmp"/x4.s "$tmp"/x8.s "$MCA_KEEP"/; rm -rf "$tmp"' EXIT

# kernel FILE FLAGS FUNCTION: FUNCTION of FILE, its loop unrolled, as
# llvm-mca input on stdout.
kernel() {
    # shellcheck disable=SC2086
    "$cc" -O3 -std=c11 -DNDEBUG -I"$root" $2 -c "$root/$1" -o "$tmp/k.o"
    objdump -d --no-show-raw-insn "$tmp/k.o" |
        awk -v fn="$3" '$0 ~ "<" fn ">:$" { on = 1; next } on && /^$/ { exit }
            on { print }' >"$tmp/f.s"
    [ -s "$tmp/f.s" ] || die "no $3 in $1"
    python3 - "$tmp/f.s" <<'PY'
import re, sys
ins = []  # (address, text)
for l in open(sys.argv[1]):
    m = re.match(r"^ *([0-9a-f]+):\t(.*)$", l.rstrip("\n"))
    if m:
        ins.append((int(m.group(1), 16), re.sub(r"\s*#.*$", "", m.group(2)).strip()))
br = [i for i, (_, t) in enumerate(ins) if re.match(r"j(ne|nz)\s", t)]
if len(br) != 1:
    sys.exit("expected one loop, found %d branches" % len(br))
b = br[0]
top = [i for i, (a, _) in enumerate(ins) if a == int(ins[b][1].split()[1], 16)][0]
dec = ins[b - 1][1]
reg = re.match(r"dec\s+(%\w+)", dec).group(1)
trips = [int(m.group(1), 16) for _, t in ins[:top]
         for m in [re.match(r"mov\s+\$0x([0-9a-f]+),\s*" + re.escape(reg) + "$", t)] if m]
if not trips:
    sys.exit("no trip count for " + reg)
out = [t for _, t in ins[:top]]
out += [t for _, t in ins[top:b]] * trips[-1]
out += [t for _, t in ins[b + 1:]]
for t in out:
    if re.match(r"(ret|lea\s+0x0\(%rip\)|endbr64)", t):
        continue  # the call's frame: not the permutation's work
    print("\t" + t)
PY
}

# cycles CPU FILE: llvm-mca's total cycles for 10 iterations / 10.
cycles() {
    "$mca" -mtriple=x86_64-linux-gnu -mcpu="$1" -iterations=10 "$2" \
        2>"$tmp/err" | awk '/^Total Cycles:/ { printf "%d", $3 / 10 }' | grep . ||
        { head -5 "$tmp/err" >&2; die "llvm-mca failed for $1"; }
}

# rthru CPU FILE: llvm-mca's Block RThroughput (the ports' bound, no
# latencies), rounded.
rthru() {
    "$mca" -mtriple=x86_64-linux-gnu -mcpu="$1" "$2" 2>/dev/null |
        awk '/^Block RThroughput:/ { printf "%d", $3 + 0.5 }'
}

kernel arch/avx512/keccak_x4_avx512vl.c "-mavx2 -mavx512f -mavx512vl" \
    mlkem_keccak_x4_permute_avx512 >"$tmp/x4.s"
kernel arch/avx512/keccak_x8_avx512.c "-mavx2 -mavx512f" \
    mlkem_keccak_x8_permute_avx512 >"$tmp/x8.s"

printf 'AVX-512 Keccak permutations, modelled cycles per call (llvm-mca 16, %s; %s and %s instructions)\n\n' \
    "$("$cc" --version | head -1)" "$(wc -l <"$tmp/x4.s")" "$(wc -l <"$tmp/x8.s")"
printf '| -mcpu | x4 (ymm, VL) | x8 (zmm) | x8 / x4 | per state x4 | per state x8 | throughput bound x4 / x8 | x8 for 5-8 streams? |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---|\n'
for cpu in $cpus; do
    if ! "$mca" -mtriple=x86_64-linux-gnu -mcpu="$cpu" "$tmp/x8.s" >/dev/null 2>&1; then
        printf '| %s | - | - | - | - | - | - | no AVX-512 in this model |\n' "$cpu"
        continue
    fi
    c4=$(cycles "$cpu" "$tmp/x4.s")
    c8=$(cycles "$cpu" "$tmp/x8.s")
    # An x8 call replaces two x4 calls when it is cheaper than both.
    verdict=$(awk -v a="$c4" -v b="$c8" 'BEGIN { print (b < 2 * a) ? "yes (x8 < 2 x4)" : "no (x8 >= 2 x4)" }')
    printf '| %s | %s | %s | %s | %s | %s | %s / %s | %s |\n' "$cpu" "$c4" "$c8" \
        "$(awk -v a="$c4" -v b="$c8" 'BEGIN { printf "%.2f", b / a }')" \
        "$((c4 / 4))" "$((c8 / 8))" "$(rthru "$cpu" "$tmp/x4.s")" \
        "$(rthru "$cpu" "$tmp/x8.s")" "$verdict"
    "$mca" -mtriple=x86_64-linux-gnu -mcpu="$cpu" -iterations=10 "$tmp/x8.s" 2>/dev/null |
        sed -n '/^Resources:/,/^$/p' | md5sum | cut -c1-8 >"$tmp/model.$cpu"
done
printf '\nModels (CPU names with the same x8 resource table share a model):\n\n'
for cpu in $cpus; do
    [ -f "$tmp/model.$cpu" ] && printf '%s %s\n' "$(cat "$tmp/model.$cpu")" "$cpu"
done |
    sort | awk '{ m[$1] = m[$1] (m[$1] == "" ? "" : ", ") $2 } END { for (k in m) print "- " m[k] }' | sort
