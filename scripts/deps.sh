#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# deps.sh: install the Debian 12 packages mlkem's build, tests, demo and
# benchmarks need, and only those that are missing. Safe to run repeatedly;
# needs root (or sudo) only when something is missing.
#
#   build:      build-essential cmake pkg-config libssl-dev (the system OpenSSL 3.0)
#   benchmarks: g++ libbenchmark-dev, gnuplot-nox (bench/chart.sh)
#   tests:      openssl curl nginx apache2 haproxy stunnel4 (real TLS peers),
#               python3 wget socat (the clients the README's table lists),
#               gzip, valgrind, perl (OpenSSL 3.5 peer build), dpkg-dev
#               (CPack's .deb), clang-14 libclang-rt-14-dev (libFuzzer, the
#               fuzz preset), groff-base (the man pages, test/ops/test_man.sh),
#               frama-c-base (the proof preset, docs/proofs.md)
#   icount:     qemu-user (bench_icount: the x86-64 instruction-count gate
#               runs the default build under qemu-x86_64)
#   --aarch64:  also the aarch64-qemu preset's cross build and emulator
#               (docs/aarch64.md): gcc/g++-aarch64-linux-gnu, qemu-user, and
#               from Debian's multiarch arm64 (added with dpkg
#               --add-architecture) libssl-dev:arm64, libbenchmark-dev:arm64
#
# A package counts as installed when dpkg has it for the native architecture
# (or as Architecture: all). On a multiarch machine `dpkg-query -W libssl-dev`
# prints one status per installed architecture, and only the native one
# builds mlkem.so.
#
# Environment (for the tests in test/ops/): MLKEM_POLICY_RC_D, the
# policy-rc.d path (default /usr/sbin/policy-rc.d).
set -euo pipefail

pkgs=(build-essential cmake pkg-config libssl-dev openssl g++ libbenchmark-dev
      curl nginx apache2 haproxy stunnel4 gzip perl valgrind dpkg-dev
      ca-certificates gnuplot-nox python3 wget socat clang-14 libclang-rt-14-dev
      groff-base qemu-user frama-c-base)

native=$(dpkg --print-architecture)
if [[ "${1:-}" == "--aarch64" ]]; then
    pkgs+=("gcc-aarch64-linux-gnu" "g++-aarch64-linux-gnu" "qemu-user"
           "libssl-dev:arm64" "libbenchmark-dev:arm64")
fi

# installed PKG[:ARCH]: "install ok installed" for ARCH, or when no ARCH is
# named for the native architecture or "all". (Read whole, not piped into
# grep -q: with pipefail, grep quitting early would fail the pipeline.)
installed() {
    local status want="($native|all)"
    [[ $1 == *:* ]] && want=${1#*:}
    status=$(dpkg-query -W -f='${Status} ${Architecture}\n' "$1" 2>/dev/null) || true
    grep -qxE "install ok installed $want" <<<"$status"
}

missing=()
for p in "${pkgs[@]}"; do
    installed "$p" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "deps.sh: installing ${missing[*]}" >&2
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"

# Package scripts must not start services (nginx and apache2 would grab port
# 80): the tests start their own servers on loopback ports. policy-rc.d says
# "no"; one that already exists (containers) is left as it is.
policy=${MLKEM_POLICY_RC_D:-/usr/sbin/policy-rc.d}
made_policy=0
if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    made_policy=1
fi
# The script's status is apt-get's, whatever the clean-up's own is.
cleanup() {
    local rc=$?
    if [[ $made_policy -eq 1 ]]; then
        $SUDO rm -f "$policy"
    fi
    exit "$rc"
}
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
if [[ "${missing[*]}" == *:arm64* ]] &&
    ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
