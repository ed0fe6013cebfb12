#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# deps.sh: install the Debian 12 packages one purpose of mlkem needs, and
# only those that are missing. Safe to run repeatedly; needs root (or sudo)
# only when something is missing.
#
#   scripts/deps.sh [--build] [--test] [--demo] [--aarch64] [--list]
#
#   --build     building mlkem.so, the tools and the packages (.deb by
#               CPack's own writer): build-essential cmake pkg-config
#               libssl-dev (the system OpenSSL 3.0). A package build
#               (`cmake --workflow --preset package`) needs nothing else.
#   --test      the whole suite, what CI runs (scripts/test.sh): the build
#               set and g++ libbenchmark-dev (bench/), openssl curl nginx
#               apache2 haproxy stunnel4 (real TLS peers), python3 wget
#               socat (the clients the README's table lists), gzip,
#               valgrind, perl (the OpenSSL peer builds), dpkg-dev lintian
#               (the .deb), rpm rpmlint (the .rpm), git (the fresh-clone
#               and reproducibility checks), gnuplot-nox librsvg2-bin
#               (scripts/chart.sh, its rendering), ca-certificates,
#               clang-14 libclang-rt-14-dev (libFuzzer, the fuzz preset),
#               groff-base (the man pages, test/ops/test_man.sh),
#               qemu-user (bench_icount: the x86-64 instruction-count gate
#               runs the default build under qemu-x86_64), frama-c-base
#               (the proof preset, docs/proofs.md)
#   --demo      scripts/demo.sh: the build set and openssl (the command
#               line), perl (the OpenSSL 3.5 peer build)
#   --aarch64   added to the sets named (all three when none is): the
#               aarch64-qemu preset's cross build and emulator
#               (docs/aarch64.md): gcc/g++-aarch64-linux-gnu, qemu-user, and
#               from Debian's multiarch arm64 (added with dpkg
#               --add-architecture) libssl-dev:arm64, libbenchmark-dev:arm64
#   --list      print the packages of the sets named, one a line; install
#               nothing
# With no set named, all three (build, test, demo).
#
# A package counts as installed when dpkg has it for the native architecture
# (or as Architecture: all). On a multiarch machine `dpkg-query -W libssl-dev`
# prints one status per installed architecture, and only the native one
# builds mlkem.so.
#
# Environment (for the tests in test/ops/): MLKEM_POLICY_RC_D, the
# policy-rc.d path (default /usr/sbin/policy-rc.d).
set -euo pipefail

build_pkgs=(build-essential cmake pkg-config libssl-dev)
test_pkgs=(g++ libbenchmark-dev openssl curl nginx apache2 haproxy stunnel4
           python3 wget socat gzip perl valgrind dpkg-dev lintian rpm rpmlint
           git gnuplot-nox librsvg2-bin ca-certificates clang-14
           libclang-rt-14-dev groff-base qemu-user frama-c-base)
demo_pkgs=(openssl perl)
aarch64_pkgs=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
              libssl-dev:arm64 libbenchmark-dev:arm64)

want_build=0 want_test=0 want_demo=0 want_aarch64=0 list=0
for arg in "$@"; do
    case "$arg" in
        --build) want_build=1 ;;
        --test) want_test=1 ;;
        --demo) want_demo=1 ;;
        --aarch64) want_aarch64=1 ;;
        --list) list=1 ;;
        -h|--help) sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "deps.sh: unknown option '$arg' (--build, --test, --demo, --aarch64, --list)" >&2
           exit 2 ;;
    esac
done
if [[ $((want_build + want_test + want_demo)) -eq 0 ]]; then
    want_build=1 want_test=1 want_demo=1
fi
# Every set builds mlkem first.
pkgs=("${build_pkgs[@]}")
[[ $want_test -eq 1 ]] && pkgs+=("${test_pkgs[@]}")
[[ $want_demo -eq 1 ]] && pkgs+=("${demo_pkgs[@]}")
[[ $want_aarch64 -eq 1 ]] && pkgs+=("${aarch64_pkgs[@]}")
# Once each, in the order first named.
declare -A seen=()
uniq=()
for p in "${pkgs[@]}"; do
    [[ -n ${seen[$p]:-} ]] && continue
    seen[$p]=1
    uniq+=("$p")
done
pkgs=("${uniq[@]}")
if [[ $list -eq 1 ]]; then
    printf '%s\n' "${pkgs[@]}"
    exit 0
fi

native=$(dpkg --print-architecture)

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
