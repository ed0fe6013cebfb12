#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test.sh: the whole test suite, as CI runs it. Installs what is missing,
# builds (or reuses) the cached OpenSSL 3.5, 4.0 and 3.6 peers, then runs the CMake
# workflow presets: `default` (Release, warnings as errors, every CTest
# suite), `asan` (AddressSanitizer + UndefinedBehaviorSanitizer), the
# hardening presets (test/hardening/README.md): `tsan` (ThreadSanitizer),
# `ct` (valgrind constant-time checks, dudect, static check) and `fuzz`
# (each libFuzzer target for a bounded time), `proof` (Frama-C analyses of
# the portable kernel, docs/proofs.md), and `aarch64-qemu` (the AArch64
# cross build under qemu-user).
#
# This script provides every peer the tests can ask for (OpenSSL 3.5, 3.6, 4.0, nginx,
# apache2, haproxy, stunnel, curl, valgrind) and the repository carries the
# test vectors, so no test has a reason to skip: any skip fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh --test
prefix=$(scripts/openssl35.sh | tail -n 1)
echo "test.sh: OpenSSL 3.5 peer at $prefix"
export MLKEM_OPENSSL35_PREFIX="$prefix"
# The OpenSSL 4.0 peer too (libcrypto.so.4; the *_40 / *40 tests are built
# against it); if it cannot be built, the run stops here.
prefix40=$(scripts/openssl-peer.sh 4.0 | tail -n 1)
echo "test.sh: OpenSSL 4.0 peer at $prefix40"
export MLKEM_OPENSSL40_PREFIX="$prefix40"
# And OpenSSL 3.6 (Debian sid; libcrypto.so.3, the *_36 / *36 tests run the
# 3.0-built programs on it); CMake finds it with --print-prefix.
prefix36=$(scripts/openssl-peer.sh 3.6 | tail -n 1)
echo "test.sh: OpenSSL 3.6 peer at $prefix36"
export MLKEM_OPENSSL36_PREFIX="$prefix36"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
times=() # wall time of each preset (configure, build, tests)
for preset in default asan tsan ct fuzz proof; do
    if [[ $preset == tsan ]]; then
        echo "test.sh: tsan leaves out (CMakePresets.json, test/hardening/README.md):" \
             "the shell tests that load mlkem.so into uninstrumented programs" \
             "(openssl, nginx, curl, apache2, haproxy, stunnel: TSan's runtime" \
             "cannot arrive by dlopen), the single-threaded 10k CCTV runs, and" \
             "the stack-contents scan (TSan's runtime keeps its own per-thread" \
             "state inside the thread's stack; default and asan run it)"
    fi
    start=$SECONDS
    cmake --workflow --preset "$preset" 2>&1 | tee -a "$log"
    times+=("$preset $((SECONDS - start)) s")
done

# The AArch64 backends, cross-built and tested under qemu-user
# (docs/aarch64.md); its preset excludes, by name, the tests that need
# host-only programs.
scripts/deps.sh --test --aarch64
python3 - <<'PY' | tee -a "$log"
import json
for t in json.load(open("CMakePresets.json"))["testPresets"]:
    if t["name"] == "aarch64-qemu":
        print("aarch64-qemu: " + t["description"])
PY
start=$SECONDS
cmake --workflow --preset aarch64-qemu 2>&1 | tee -a "$log"
times+=("aarch64-qemu $((SECONDS - start)) s")
echo "test.sh: wall time per preset: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"

bad=$(grep -E '\*\*\*Skipped' "$log" || true)
if [[ -n "$bad" ]]; then
    echo "test.sh: these tests skipped, which counts as a failure:" >&2
    echo "$bad" >&2
    exit 1
fi
