#!/usr/bin/env bash
# test.sh: the whole test suite, as CI runs it. Installs what is missing,
# builds (or reuses) the cached OpenSSL 3.5 peer, then runs the CMake
# workflow presets: `default` (Release, warnings as errors, every CTest
# suite) and `asan` (AddressSanitizer + UndefinedBehaviorSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh
prefix=$(scripts/openssl35.sh | tail -n 1)
echo "test.sh: OpenSSL 3.5 peer at $prefix"
export MLKEM_OPENSSL35_PREFIX="$prefix"

cmake --workflow --preset default
cmake --workflow --preset asan
