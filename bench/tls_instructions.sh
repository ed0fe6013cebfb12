#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/tls_instructions.sh: instructions per full TLS 1.3 handshake
# (client + server in one thread, test/tls/tls_handshake_loop), counted by
# valgrind's callgrind: a deterministic companion to bench/tls_handshakes.sh,
# whose wall-clock rates are noisy on a shared machine.
#
# Usage: bench/tls_instructions.sh [BUILD_DIR]   (default build/default)
#   env SHORT, LONG: handshakes in the two runs (default 10 and 40)
#
# Steady state: only the handshake functions are counted
# (--toggle-collect), and the count of a SHORT run is subtracted from a LONG
# one, so one-time costs (first fetches, the first DRBG of a thread) cancel:
# instructions per handshake = (I_long - I_short) / (LONG - SHORT).
# Note: valgrind does not run AVX-512, so under callgrind the kernel takes
# the best backend without it (avx2 on an AVX2 CPU).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/default}
loop=$build/test/tls/tls_handshake_loop
provdir=$build/provider
short=${SHORT:-10}
long=${LONG:-40}

# shellcheck source-path=SCRIPTDIR source=callgrind.sh
source "$root/bench/callgrind.sh"
cg_init
[ -x "$loop" ] || { echo "no $loop: build the tree first" >&2; exit 1; }

# The provider configured "decoders = no" (provider/config.c), through
# MLKEM_TLS_CONF (test/tls/tls_common.c), with the configuration the build
# writes for tls_inproc_nodecoders.
nodec=$build/test/tls/nodecoders.cnf
[ -f "$nodec" ] || { echo "no $nodec: reconfigure the tree" >&2; exit 1; }

# count GROUP DIR CONF N: collected instructions for N handshakes
count() {
    MLKEM_TLS_CONF=$3 MLKEM_HANDSHAKES=$4 cg_collect \
        tls_pair_new tls_pair_handshake tls_pair_free -- "$loop" "$1" 1 "$2"
}

# per_hs GROUP DIR [CONF]: instructions per handshake
per_hs() { cg_steady "$short" "$long" count "$1" "$2" "${3:-}"; }

base=$(per_hs x25519 -)
loaded=$(per_hs x25519 "$provdir")
hybrid=$(per_hs X25519MLKEM768 "$provdir")
loaded_nodec=$(per_hs x25519 "$provdir" "$nodec")
hybrid_nodec=$(per_hs X25519MLKEM768 "$provdir" "$nodec")
backend=$(valgrind -q "$build/test/arch/arch_test_dispatch" 2>/dev/null |
          sed -n 's/.*chosen \([a-z0-9]*\).*/\1/p' || true)

printf '\nInstructions per TLS 1.3 handshake (callgrind, steady state, %s - %s handshakes, kernel backend %s)\n\n' \
    "$long" "$short" "${backend:-?}"
printf '| %-52s | %12s | %13s |\n' "configuration" "instructions" "vs 3.0 X25519"
printf '|%s|%s|%s|\n' "------------------------------------------------------" "--------------" "---------------"
for row in "OpenSSL 3.0, X25519 (default provider only)|$base" \
           "OpenSSL 3.0 + mlkem loaded, X25519|$loaded" \
           "OpenSSL 3.0 + mlkem, X25519MLKEM768|$hybrid" \
           "OpenSSL 3.0 + mlkem (decoders = no) loaded, X25519|$loaded_nodec" \
           "OpenSSL 3.0 + mlkem (decoders = no), X25519MLKEM768|$hybrid_nodec"; do
    IFS='|' read -r label n <<<"$row"
    printf '| %-52s | %12s | %13s |\n' "$label" "$n" "$(awk -v a="$n" -v b="$base" 'BEGIN{printf "%.3f", a/b}')"
done
awk -v h="$hybrid" -v b="$base" 'BEGIN {
    r = b / h
    printf "\nthroughput ratio by instructions: %.3f (goal >= 0.85): %s\n", r, (r >= 0.85 ? "met" : "NOT met")
}'
awk -v h="$hybrid_nodec" -v b="$base" 'BEGIN {
    printf "with decoders = no: %.3f\n", b / h
}'
