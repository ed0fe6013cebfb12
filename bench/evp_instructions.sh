#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/evp_instructions.sh: instructions per EVP call (valgrind's
# callgrind), ML-KEM through mlkem.so beside X25519 and, on OpenSSL 3.5,
# the default provider's own ML-KEM: the deterministic companion of the
# evp_* benchmarks of mlkem_bench (bench_kem.cc), whose ticks are noisy on a
# shared machine.
#
# Usage: bench/evp_instructions.sh [BUILD_DIR] [ALG]
#   BUILD_DIR  default build/default (needs test/provider/evp_op_loop)
#   ALG        default ML-KEM-768
#   env MLKEM_OPENSSL35_PREFIX: also count on OpenSSL 3.5, the peer
#       `scripts/openssl-peer.sh 3.5 --print-prefix` finds there (its lib/
#       replaces the system libcrypto.so.3 through LD_LIBRARY_PATH)
#   env OPS: the operations (evp_op_loop's names; default below)
#   env SHORT, LONG: calls in the two runs (default 5 and 25)
#
# Steady state: only the op_* function of the operation is counted
# (--toggle-collect), after a warm-up outside it, and the count of a SHORT
# run is subtracted from a LONG one: instructions per call =
# (I_long - I_short) / (LONG - SHORT). X25519's encaps_init, encaps and
# decaps are derive_init and derive; its roundtrip is both sides' keygen,
# public key import and derive. Valgrind does not run AVX-512: under
# callgrind the kernel takes the best backend without it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/default}
alg=${2:-ML-KEM-768}
loop=$build/test/provider/evp_op_loop
provdir=$build/provider
short=${SHORT:-5}
long=${LONG:-25}
ops=${OPS:-ctx_pkey ctx_name encaps_init decaps_init encaps decaps keygen pub_from roundtrip}

# shellcheck source-path=SCRIPTDIR source=callgrind.sh
source "$root/bench/callgrind.sh"
cg_init
[ -x "$loop" ] || { echo "no $loop: build the tree first" >&2; exit 1; }

fn_of() {
    case $1 in
    encaps_init | decaps_init) echo op_init ;;
    *) echo "op_$1" ;;
    esac
}

# count LIBDIR PROV ALG OP N: collected instructions for N calls
count() {
    LD_LIBRARY_PATH=$1 cg_collect "$(fn_of "$4")" -- \
        "$loop" "$provdir" "$2" "$3" "$4" "$5"
}

# per_call LIBDIR PROV ALG OP: instructions per call
per_call() { cg_steady "$short" "$long" count "$@"; }

cols=("OpenSSL 3.0, mlkem $alg||mlkem|$alg"
      "OpenSSL 3.0, X25519||default|X25519")
if [ -n "${MLKEM_OPENSSL35_PREFIX:-}" ]; then
    p35=$("$root/scripts/openssl-peer.sh" 3.5 --print-prefix) ||
        { echo "no OpenSSL 3.5 at MLKEM_OPENSSL35_PREFIX=$MLKEM_OPENSSL35_PREFIX" >&2; exit 1; }
    lib35=$p35/lib
    cols+=("OpenSSL 3.5, mlkem $alg|$lib35|mlkem|$alg"
           "OpenSSL 3.5, default $alg|$lib35|default|$alg"
           "OpenSSL 3.5, X25519|$lib35|default|X25519")
fi

printf '\nInstructions per call (callgrind, steady state, %s - %s calls)\n\n' "$long" "$short"
printf '| %-12s |' op
for c in "${cols[@]}"; do printf ' %s |' "${c%%|*}"; done
printf '\n|--------------|'
for c in "${cols[@]}"; do
    label=${c%%|*}
    printf '%s|' "$(printf '%*s' $(( ${#label} + 2 )) '' | tr ' ' -)"
done
printf '\n'
for op in $ops; do
    printf '| %-12s |' "$op"
    for c in "${cols[@]}"; do
        IFS='|' read -r label lib prov a <<<"$c"
        n=$(per_call "$lib" "$prov" "$a" "$op") || { echo; exit 1; }
        printf " %${#label}s |" "$n"
    done
    printf '\n'
done
