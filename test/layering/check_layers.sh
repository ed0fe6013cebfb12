#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_layers.sh: the kernel's one-way layering, checked on the sources.
#
#   common/   includes nothing of the project but common/
#   keccak/   common/, keccak/
#   kem/      common/, keccak/, kem/
#   arch/     anything of the kernel (it implements keccak/'s and kem/'s
#             slots); never provider/
#   curve25519/ common/, curve25519/, and no OpenSSL header: it is curve
#             arithmetic in portable C (the X25519 public keys of the TLS
#             hybrid), a library of its own
#   provider/ kem/mlkem.h, curve25519/x25519.h, common/, provider/ (the
#             hybrids use EVP)
# and, anywhere in the tree:
#   - no file includes a .c file (shared code is a header template);
#   - intrinsics headers (*intrin.h, arm_neon.h, arm_acle.h, ...) and ISA
#     compiler flags (-mavx*, -mbmi*, -msse*, -march=, -mcpu=, +sha3, ...)
#     appear only under arch/<isa>/.
#
# Usage: check_layers.sh <source dir>     check the tree, list violations
#        check_layers.sh --selftest       build small trees that break each
#                                         rule and check that each is caught
set -uo pipefail

violations=0
report() {
    printf 'LAYERING: %s\n' "$*"
    violations=$((violations + 1))
}

# The project-relative includes ("dir/file.h") of the files under $1/$2.
includes() {
    local root=$1 dir=$2
    [[ -d $root/$dir ]] || return 0
    grep -rHnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' \
        --include='*.c' --include='*.h' --include='*.cc' "$root/$dir" |
        sed -E "s#^$root/##; s#:([0-9]+):.*\"([^\"]+)\".*#:\1 \2#"
}

# Every include of a file under $dir must match the allowed pattern.
check_dir() {
    local root=$1 dir=$2 allowed=$3
    while read -r where target; do
        [[ -n $where ]] || continue
        if [[ ! $target =~ $allowed ]]; then
            report "$where: $dir/ may not include \"$target\""
        fi
    done < <(includes "$root" "$dir")
}

check_tree() {
    local root=$1
    violations=0
    check_dir "$root" common '^common/'
    check_dir "$root" keccak '^(common|keccak)/'
    check_dir "$root" kem '^(common|keccak|kem)/'
    check_dir "$root" arch '^(common|keccak|kem|arch)/'
    check_dir "$root" curve25519 '^(common|curve25519)/'
    check_dir "$root" provider '^(common/|provider/|kem/mlkem\.h$|curve25519/x25519\.h$)'

    # curve25519/ uses the C library only: no <openssl/...> include.
    if [[ -d $root/curve25519 ]]; then
        while IFS= read -r hit; do
            report "${hit#"$root"/}: curve25519/ may not include OpenSSL"
        done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<openssl/' \
            --include='*.c' --include='*.h' "$root/curve25519" 2>/dev/null)
    fi

    # No #include of a .c file, anywhere.
    while IFS= read -r hit; do
        report "${hit#"$root"/}: includes a .c file"
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]+\.c[>"]' \
        --include='*.c' --include='*.h' --include='*.cc' "$root" 2>/dev/null |
        grep -v "^$root/build/")

    # Intrinsics headers and ISA flags only under arch/<isa>/.
    local intrin='#[[:space:]]*include[[:space:]]*<([a-z0-9]*intrin\.h|arm_neon\.h|arm_acle\.h|arm_sve\.h)>'
    local flags='(^|[[:space:]";(])(-mavx[0-9a-z]*|-mbmi2?|-msse[0-9.]*|-mssse3|-mfma|-mpclmul|-maes|-mvpclmulqdq|-mgfni|-march=[^[:space:]"]*|-mcpu=[^[:space:]"]*|-mtune=[^[:space:]"]*)'
    while IFS= read -r hit; do
        local file=${hit%%:*}
        file=${file#"$root"/}
        [[ $file =~ ^arch/[^/]+/ ]] && continue
        report "${hit#"$root"/}: intrinsics header outside arch/<isa>/"
    done < <(grep -rnE "$intrin" --include='*.c' --include='*.h' --include='*.cc' \
        "$root" 2>/dev/null | grep -v "^$root/build/")
    while IFS= read -r hit; do
        local file=${hit%%:*}
        file=${file#"$root"/}
        [[ $file =~ ^arch/[^/]+/ ]] && continue
        report "${hit#"$root"/}: ISA compiler flag outside arch/<isa>/"
    done < <(grep -rnE "$flags" --include='CMakeLists.txt' --include='*.cmake' \
        --include='CMakePresets.json' "$root" 2>/dev/null |
        grep -v "^$root/build/" | grep -vE ':[0-9]+:[[:space:]]*#')
    return $((violations > 0))
}

selftest() {
    local t fails=0
    t=$(mktemp -d)
    trap 'rm -rf "$t"' RETURN
    mk() { mkdir -p "$(dirname "$t/$1")"; printf '%s\n' "$2" >"$t/$1"; }
    # A clean tree passes.
    mk common/ct.h '#include <stdint.h>'
    mk keccak/k.c '#include "common/ct.h"'
    mk kem/m.c '#include "keccak/keccak.h"'
    mk arch/dispatch.c '#include "kem/poly_kernels.h"'
    mk arch/avx2/p.c '#include <immintrin.h>'
    mk arch/avx2/CMakeLists.txt 'set_source_files_properties(p.c PROPERTIES COMPILE_OPTIONS "-mavx2")'
    mk curve25519/x25519.c '#include "common/ct.h"'
    mk provider/prov.c '#include "kem/mlkem.h"'
    mk provider/hybrid_ec.c '#include "curve25519/x25519.h"'
    if ! check_tree "$t" >/dev/null; then
        echo "selftest: a clean tree was rejected"
        fails=$((fails + 1))
    fi
    # Each rule, broken once in a copy of the clean tree.
    local cases=(
        'keccak/bad.c|#include "kem/poly.h"'
        'keccak/bad2.c|#include "arch/dispatch.h"'
        'keccak/bad3.c|#include "provider/prov.h"'
        'kem/bad.c|#include "arch/avx2/x.h"'
        'kem/bad2.c|#include "provider/prov.h"'
        'common/bad.h|#include "kem/mlkem.h"'
        'provider/bad.c|#include "kem/poly.h"'
        'provider/bad2.c|#include "curve25519/fe25519.h"'
        'curve25519/bad.c|#include "provider/prov.h"'
        'curve25519/bad2.c|#include "kem/mlkem.h"'
        'curve25519/bad3.c|#include <openssl/crypto.h>'
        'test/bad.c|#include "kem/ntt.c"'
        'arch/bad.c|#include <immintrin.h>'
        'kem/bad3.c|#include <arm_neon.h>'
        'kem/CMakeLists.txt|target_compile_options(x PRIVATE -mavx2)'
        'CMakeLists.txt|add_compile_options(-march=native)'
    )
    local c
    for c in "${cases[@]}"; do
        local file=${c%%|*} line=${c#*|} u
        u=$(mktemp -d)
        cp -r "$t"/. "$u"/
        mkdir -p "$(dirname "$u/$file")"
        printf '%s\n' "$line" >>"$u/$file"
        if check_tree "$u" >/dev/null; then
            echo "selftest: not caught: $file: $line"
            fails=$((fails + 1))
        fi
        rm -rf "$u"
    done
    echo "selftest: ${#cases[@]} violations tried, $fails missed"
    return $((fails > 0))
}

case "${1:-}" in
    --selftest) selftest ;;
    "") echo "usage: $0 <source dir> | --selftest" >&2; exit 2 ;;
    *)
        check_tree "$1"
        rc=$?
        if [[ $rc -eq 0 ]]; then
            echo "layering: ok (common <- keccak <- kem <- arch; common <- curve25519; provider on kem/mlkem.h and curve25519/x25519.h)"
        else
            echo "layering: $violations violation(s)"
        fi
        exit $rc
        ;;
esac
