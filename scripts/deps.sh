#!/usr/bin/env bash
# deps.sh: install the Debian 12 packages mlkem's build, tests, demo and
# benchmarks need, and only those that are missing. Safe to run repeatedly;
# needs root (or sudo) only when something is missing.
#
#   build:      build-essential cmake pkg-config libssl-dev (the system OpenSSL 3.0)
#   benchmarks: g++ libbenchmark-dev
#   tests:      openssl curl nginx (real TLS peers), gzip, valgrind,
#               perl (OpenSSL 3.5 peer build), dpkg-dev (CPack's .deb),
#               clang-14 libclang-rt-14-dev (libFuzzer, the fuzz preset)
set -euo pipefail

pkgs=(build-essential cmake pkg-config libssl-dev openssl g++ libbenchmark-dev
      curl nginx gzip perl valgrind dpkg-dev ca-certificates
      clang-14 libclang-rt-14-dev)

missing=()
for p in "${pkgs[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "deps.sh: installing ${missing[*]}" >&2
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"

# Package scripts must not start services (nginx would grab port 80): the
# tests start their own servers on loopback ports. policy-rc.d says "no".
policy=/usr/sbin/policy-rc.d
made_policy=0
if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee $policy >/dev/null
    $SUDO chmod 755 $policy
    made_policy=1
fi
cleanup() { [[ $made_policy -eq 1 ]] && $SUDO rm -f $policy; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
