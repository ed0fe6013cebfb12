#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/qemu/mlkem-native.sh - build (once) mlkem-native's AArch64 variants
# outside the clone, each with bench/qemu/mlkem_native_driver.c, for
# bench/qemu/icount.sh to count beside ours.
#
# Usage: bench/qemu/mlkem-native.sh SOURCE [BITS]
#   SOURCE  a git directory (or clone) of pq-code-package/mlkem-native
#           holding the pinned commit below (e.g. what `git clone` or a
#           mirror gives), or an already extracted tree of that commit
#   BITS    512, 768 (default) or 1024
# Prints "name=program" lines for icount.sh --peer, one per variant:
#   mlkem-native-c        its portable C (no native backend), -O3
#   mlkem-native-v8a      native backends, -march=armv8-a (the
#                         scalar/NEON hybrid x4 Keccak, scalar x1)
#   mlkem-native-sha3     -march=armv8.4-a+sha3 (its Graviton 3/4 setting:
#                         hybrid x4 with the SHA3 instructions, scalar x1)
#   mlkem-native-fastsha3 the same plus MLK_SYS_AARCH64_FAST_SHA3 (its
#                         Apple / newer Neoverse V setting: x2 and x1 in
#                         SHA3 instructions only)
# Compiler: aarch64-linux-gnu-gcc (CC_AARCH64 overrides), static, non-PIE,
# -O3 like its Makefile's OPT build. Built from its monolithic
# mlkem/mlkem_native.c + mlkem/mlkem_native_asm.S (the build its
# BUILDING.md describes for embedding), not its Makefile.
#
# Environment: MLKEM_NATIVE_CACHE (default /var/cache/mlkem/mlkem-native).
set -euo pipefail

# mlkem-native v2.0.0 (STYLE.md's reading of it).
PIN=d1b2fe78
me=mlkem-native
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: mlkem-native.sh SOURCE [BITS]}
bits=${2:-768}
cc=${CC_AARCH64:-aarch64-linux-gnu-gcc}
cache=${MLKEM_NATIVE_CACHE:-/var/cache/mlkem/mlkem-native}
tree=$cache/$PIN
mkdir -p "$cache"

if [ ! -f "$tree/mlkem/mlkem_native.c" ]; then
    if git --git-dir="$src" rev-parse -q --verify "$PIN^{commit}" >/dev/null 2>&1; then
        gd=$src
    elif git -C "$src" rev-parse -q --verify "$PIN^{commit}" >/dev/null 2>&1; then
        gd=$(git -C "$src" rev-parse --git-dir)
        case $gd in /*) ;; *) gd=$src/$gd ;; esac
    elif [ -f "$src/mlkem/mlkem_native.c" ]; then
        gd=""
    else
        die "$src holds neither commit $PIN nor an mlkem-native tree"
    fi
    rm -rf "$tree.tmp"
    mkdir -p "$tree.tmp"
    if [ -n "$gd" ]; then
        git --git-dir="$gd" archive "$PIN" mlkem | tar -x -C "$tree.tmp"
    else
        cp -r "$src/mlkem" "$tree.tmp/"
    fi
    mv "$tree.tmp" "$tree"
fi

build() { # name, flags...
    local name=$1 out=$cache/$PIN-$bits/$1
    shift
    if [ ! -x "$out/drv" ] || [ "$here/mlkem_native_driver.c" -nt "$out/drv" ]; then
        mkdir -p "$out"
        "$cc" -O3 -static -no-pie -Wall -DMLK_CONFIG_PARAMETER_SET="$bits" \
            -DMLK_CONFIG_NO_RANDOMIZED_API -DMLK_CONFIG_NAMESPACE_PREFIX=mlkn "$@" -I"$tree/mlkem" \
            "$tree/mlkem/mlkem_native.c" "$tree/mlkem/mlkem_native_asm.S" \
            "$here/mlkem_native_driver.c" -o "$out/drv.tmp" \
            || die "building $name failed"
        mv "$out/drv.tmp" "$out/drv"
    fi
    printf '%s=%s\n' "$name" "$out/drv"
}

native=(-DMLK_CONFIG_USE_NATIVE_BACKEND_ARITH -DMLK_CONFIG_USE_NATIVE_BACKEND_FIPS202)
build mlkem-native-c -march=armv8-a
build mlkem-native-v8a -march=armv8-a "${native[@]}"
build mlkem-native-sha3 -march=armv8.4-a+sha3 "${native[@]}"
build mlkem-native-fastsha3 -march=armv8.4-a+sha3 -DMLK_SYS_AARCH64_FAST_SHA3 "${native[@]}"
