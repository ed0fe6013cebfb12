#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# codegen.sh OUTDIR: the disassembly of the kernel files whose code the
# proof annotations and the wrap-free rewrites touch (kem/reduce.h's
# users, sampling.c), as built by gcc and clang at -O3 for x86-64 and by
# gcc for AArch64, so a change to them can be checked to leave the
# generated code identical (diff -r OLD NEW).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
for cc in gcc clang-14 aarch64-linux-gnu-gcc; do
    command -v "$cc" >/dev/null || continue
    od=objdump
    [[ $cc == aarch64* ]] && od=aarch64-linux-gnu-objdump
    for f in kem/ntt.c kem/poly.c kem/compress.c kem/sampling.c keccak/sha3.c; do
        o=$(mktemp --suffix=.o)
        "$cc" -std=c11 -O3 -DNDEBUG -fPIC -fvisibility=hidden -I. -c "$f" -o "$o"
        { "$od" -d --no-show-raw-insn -j .text "$o"
          "$od" -s -j .rodata "$o" 2>/dev/null || true; } | grep -v 'file format' \
            >"$out/$cc.$(basename "$f").s"
        rm -f "$o"
    done
done
