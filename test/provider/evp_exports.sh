#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# evp_exports.sh MODULE: the module's defined dynamic symbols must be exactly
# OSSL_provider_init (provider/mlkem.map uses an anonymous version node, so
# there are no version-node symbols to allow).
set -u
mod="$1"
nm_bin="${NM:-nm}"
if ! command -v "$nm_bin" >/dev/null 2>&1; then
    echo "SKIP: nm not found (binutils)"
    exit 77
fi
syms="$("$nm_bin" -D --defined-only "$mod" | awk '{print $NF}' | sort)" || {
    echo "FAIL: nm -D --defined-only $mod failed"; exit 1; }
echo "defined dynamic symbols of $mod:"
echo "$syms" | sed 's/^/  /'
if [ "$syms" != "OSSL_provider_init" ]; then
    echo "FAIL: expected exactly OSSL_provider_init"
    exit 1
fi
# And it must be a global function (T), not data or weak.
type="$("$nm_bin" -D --defined-only "$mod" | awk '$NF == "OSSL_provider_init" {print $2}')"
if [ "$type" != "T" ]; then
    echo "FAIL: OSSL_provider_init has nm type '$type', expected T"
    exit 1
fi
echo "1 passed, 0 failed"
