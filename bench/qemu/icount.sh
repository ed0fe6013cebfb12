#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/qemu/icount.sh - instructions per ML-KEM operation and per kernel,
# for every backend, counted under qemu-user by bench/qemu/insn_plugin.c;
# and the instruction-count gate against a committed baseline.
#
# Usage:
#   bench/qemu/icount.sh [options]                  print the tables
#   bench/qemu/icount.sh [options] --check FILE     compare with a baseline:
#                                                   exit 1 if an operation
#                                                   grew by more than 2%
#   bench/qemu/icount.sh [options] --update FILE    rewrite the baseline
# Options:
#   --build DIR      a build tree holding bench/qemu/icount_driver
#                    (default build/aarch64-qemu)
#   --backends LIST  space-separated backends (MLKEM_BACKEND names); default
#                    every one qemu runs: aarch64 portable neon neon-sha3
#                    neon-sha3x2, x86-64 portable avx2 (qemu 7.2 has no
#                    AVX-512); a backend the build lacks is an error
#   --bits LIST      parameter sets (default 768; the gate uses 512 768 1024)
#   --reps N         calls per operation counted (default 4; the count is
#                    deterministic, so more only costs time)
#   --kernels        also the per-kernel table (instructions and calls per
#                    operation, the functions over 1% of one)
#   --peer NAME=PROG count another program that follows
#                    icount_driver.c's phase protocol (keygen, encaps,
#                    decaps), e.g. what bench/qemu/mlkem-native.sh prints;
#                    repeatable
#   --keep DIR       keep the plugin's raw output files there
# Environment:
#   MLKEM_ICOUNT_TOLERANCE  the gate's allowed growth in percent (default 2)
#   QEMU_CPU                qemu's CPU model (default max)
#
# Every backend must give the same bytes (the driver's digest line), or
# the script fails. The baseline is a TSV file (backend, bits, operation,
# instructions per call) with the compiler that built the driver in a
# comment: counts depend on the compiler and flags, so a baseline is for
# one preset (aarch64-qemu: bench/qemu/baseline-aarch64.tsv, default:
# bench/qemu/baseline-x86_64.tsv). After a change that moves the counts
# on purpose, rewrite it and commit it with the change:
#   cmake --build --preset aarch64-qemu --target icount_driver
#   bench/qemu/icount.sh --build build/aarch64-qemu --bits "512 768 1024" \
#       --update bench/qemu/baseline-aarch64.tsv
# (the same with build/default and baseline-x86_64.tsv). The plugin is
# built on first use into <build>/bench/qemu/, against the header that
# bench/qemu/plugin-header.sh caches outside the clone.
set -euo pipefail

me=icount
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build/aarch64-qemu
backends=""
bits=768
reps=4
kernels=0
mode=report
baseline=""
keep=""
peers=()
tol=${MLKEM_ICOUNT_TOLERANCE:-2}

while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --bits) bits=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --kernels) kernels=1; shift ;;
    --peer) peers+=("$2"); shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --check) mode=check; baseline=$2; shift 2 ;;
    --update) mode=update; baseline=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) die "unknown argument $1 (--help)" ;;
    esac
done

drv=$build/bench/qemu/icount_driver
[ -x "$drv" ] || die "no $drv: cmake --build $build --target icount_driver"

# The driver's architecture (ELF e_machine) picks the emulator.
machine=$(od -An -tu2 -j18 -N2 "$drv" | tr -d ' ')
case $machine in
183) arch=aarch64; all="portable neon neon-sha3 neon-sha3x2" ;;
62) arch=x86_64; all="portable avx2" ;;
*) die "$drv: unknown ELF machine $machine" ;;
esac
qemu=$(command -v "qemu-$arch") || die "qemu-$arch not found (Debian: qemu-user)"
export QEMU_CPU=${QEMU_CPU:-max}
if [ -z "$backends" ]; then
    # The backends this build has that qemu runs.
    have=$("$qemu" "$drv" list | awk '$2 == "runnable" { print $1 }') ||
        die "$drv list failed under $qemu"
    for b in $all; do
        if printf '%s\n' "$have" | grep -qx -- "$b"; then
            backends="$backends $b"
        fi
    done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$keep" ] && mkdir -p "$keep"

# ---- The plugin ---------------------------------------------------------
plugin=$build/bench/qemu/insn_plugin.so
if [ ! -f "$plugin" ] || [ "$here/insn_plugin.c" -nt "$plugin" ]; then
    hdr=$("$here/plugin-header.sh" | tail -n1) || die "no qemu-plugin.h (bench/qemu/plugin-header.sh)"
    mkdir -p "$(dirname "$plugin")"
    ${HOST_CC:-cc} -O2 -Wall -Wextra -shared -fPIC -I"$hdr" "$here/insn_plugin.c" \
        -o "$plugin.tmp" || die "building the plugin failed"
    mv "$plugin.tmp" "$plugin"
fi

# count NAME PROG BITS: runs PROG under the plugin; NAME.tsv (the plugin's
# output) and NAME.out (stdout) land in $tmp.
count() {
    local name=$1 prog=$2 b=$3 nmprog
    nmprog=$(command -v "$arch-linux-gnu-nm" || command -v nm)
    "$nmprog" -S --defined-only "$prog" |
        awk 'NF == 4 && $3 ~ /^[tTwWiI]$/ { print $1, $2, $4 }' >"$tmp/$name.syms"
    if ! "$qemu" -plugin "$plugin,out=$tmp/$name.tsv,syms=$tmp/$name.syms" \
        "$prog" "$b" "$reps" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        cat "$tmp/$name.err" >&2
        die "$name: $prog failed under $qemu"
    fi
    [ -n "$keep" ] && cp "$tmp/$name.tsv" "$keep/"
    return 0
}

ops_byte="keygen encaps decaps"
ops_key="key_keygen key_ek key_encaps key_dk key_decaps"
cols=()
for b in $bits; do
    ref=""
    for be in $backends; do
        n="$be-$b"
        MLKEM_BACKEND=$be count "$n" "$drv" "$b"
        got=$(sed -n 's/^backend //p' "$tmp/$n.out")
        [ "$got" = "$be" ] || die "MLKEM_BACKEND=$be ran backend '$got' (not built, or not runnable on QEMU_CPU=$QEMU_CPU)"
        d=$(grep '^digest' "$tmp/$n.out")
        [ -z "$ref" ] && ref=$d
        [ "$d" = "$ref" ] || die "$be computed other bytes than ${backends%% *} at ML-KEM-$b"
        cols+=("$n")
    done
    for p in "${peers[@]}"; do
        pn=${p%%=*}
        n="$pn-$b"
        count "$n" "${p#*=}" "$b"
        d=$(grep '^digest' "$tmp/$n.out")
        [ "$d" = "$ref" ] || die "$pn computed other bytes than ours at ML-KEM-$b"
        cols+=("$n")
    done
done

# per NAME OP: instructions per call of OP (empty if the phase is absent).
per() {
    awk -F'\t' -v op="$2" -v r="$reps" '$1 == op && $2 == "*" { printf "%d", ($3 + r / 2) / r }' "$tmp/$1.tsv"
}

compiler=$({ strings -a "$drv" || true; } | awk '/^GCC: |clang version/ && !s { print; s = 1 }')
[ -n "$compiler" ] || compiler=unknown

if [ "$mode" = update ]; then
    {
        printf '# bench/qemu/icount.sh baseline: instructions per call under qemu-%s (QEMU_CPU=%s)\n' "$arch" "$QEMU_CPU"
        printf '# driver compiler: %s\n' "$compiler"
        printf '# regenerate: bench/qemu/icount.sh --build <dir> --bits "%s" --update <this file>\n' "$bits"
        printf 'backend\tbits\top\tinstructions\n'
        for n in "${cols[@]}"; do
            for op in $ops_byte $ops_key; do
                v=$(per "$n" "$op")
                [ -n "$v" ] && printf '%s\t%s\t%s\t%s\n' "${n%-*}" "${n##*-}" "$op" "$v"
            done
        done
    } >"$baseline.tmp"
    mv "$baseline.tmp" "$baseline"
    echo "$me: wrote $baseline ($(grep -vc '^#\|^backend' "$baseline") counts)"
    exit 0
fi

if [ "$mode" = check ]; then
    [ -r "$baseline" ] || die "no baseline $baseline"
    bc=$(sed -n 's/^# driver compiler: //p' "$baseline")
    [ "$bc" = "$compiler" ] || echo "$me: warning: baseline made by '$bc', this driver by '$compiler'"
    fail=0 seen=0
    while IFS=$'\t' read -r be b op want; do
        case $be in '#'* | backend) continue ;; esac
        [ -f "$tmp/$be-$b.tsv" ] || { echo "$me: FAIL $be ML-KEM-$b: not measured (backend missing?)"; fail=1; continue; }
        got=$(per "$be-$b" "$op")
        [ -n "$got" ] || { echo "$me: FAIL $be ML-KEM-$b $op: no such phase"; fail=1; continue; }
        seen=$((seen + 1))
        verdict=$(awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN {
            d = 100 * (g - w) / w
            printf "%+.2f%% %s", d, (d > t ? "FAIL" : (d < -t ? "better" : "ok")) }')
        printf '%-12s %4s %-10s %9s -> %9s  %s\n' "$be" "$b" "$op" "$want" "$got" "$verdict"
        case $verdict in *FAIL) fail=1 ;; esac
    done <"$baseline"
    [ "$seen" -gt 0 ] || die "the baseline $baseline lists nothing"
    for n in "${cols[@]}"; do
        grep -q "^${n%-*}	${n##*-}	" "$baseline" ||
            { echo "$me: FAIL ${n%-*} ML-KEM-${n##*-} is not in the baseline (--update)"; fail=1; }
    done
    if [ "$fail" -ne 0 ]; then
        echo "$me: an operation grew by more than $tol% (or is missing). If on purpose, rewrite the baseline:"
        echo "  bench/qemu/icount.sh --build $build --bits \"$bits\" --update $baseline"
        exit 1
    fi
    echo "$me: every operation within +$tol% of $baseline"
    exit 0
fi

# ---- Report -------------------------------------------------------------
printf '\nInstructions per call, qemu-%s QEMU_CPU=%s, %s\n' "$arch" "$QEMU_CPU" "$compiler"
for b in $bits; do
    printf '\nML-KEM-%s, byte API\n\n| implementation | keygen | encaps | decaps | K+E+D |\n|---|---:|---:|---:|---:|\n' "$b"
    for n in "${cols[@]}"; do
        [ "${n##*-}" = "$b" ] || continue
        k=$(per "$n" keygen) e=$(per "$n" encaps) d=$(per "$n" decaps)
        printf '| %s | %s | %s | %s | %s |\n' "${n%-*}" "$k" "$e" "$d" "$((k + e + d))"
    done
    printf '\nML-KEM-%s, held keys (mlkem_key)\n\n| backend | key_keygen | key_ek | key_encaps | key_dk | key_decaps |\n|---|---:|---:|---:|---:|---:|\n' "$b"
    for n in "${cols[@]}"; do
        [ "${n##*-}" = "$b" ] || continue
        [ -n "$(per "$n" key_keygen)" ] || continue
        printf '| %s |' "${n%-*}"
        for op in $ops_key; do printf ' %s |' "$(per "$n" "$op")"; done
        printf '\n'
    done
done

if [ "$kernels" -eq 1 ]; then
    for n in "${cols[@]}"; do
        for op in $ops_byte; do
            printf '\n%s, %s: functions over 1%% (instructions per operation, calls, per call)\n\n' "$n" "$op"
            printf '| function | instructions | calls | per call |\n|---|---:|---:|---:|\n'
            awk -F'\t' -v op="$op" -v r="$reps" '
                $1 == op && $2 == "*" { tot = $3 }
                $1 == op && $2 != "*" { ins[$2] = $3; ent[$2] = $4 }
                END {
                    for (f in ins) if (ins[f] * 100 >= tot)
                        printf "| %s | %d | %.1f | %s |\n", f, ins[f] / r, ent[f] / r,
                            ent[f] ? sprintf("%d", ins[f] / ent[f]) : "-"
                }' "$tmp/$n.tsv" | sort -t'|' -k3,3nr
        done
    done
fi
