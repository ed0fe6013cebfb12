#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# soak_tls.sh: TLS half of the bounded soak (issue 11). Starts OpenSSL 3.0's
# `openssl s_server -www` on 127.0.0.1 with the provider and
# X25519MLKEM768 as its only group, for exactly N + 1 connections
# (-naccept), then runs `hardening_soak tls` against it (N full handshakes,
# each checked, the RSS figures, one more handshake), waits for the server
# to exit by itself and checks it.
#
#   soak_tls.sh <hardening_soak> <provider dir> <handshakes>
#
# In a ThreadSanitizer build (MLKEM_SOAK_TSAN_PRELOAD set by CMake) s_server
# runs with libtsan preloaded, so that it can load the TSan-built mlkem.so;
# any report fails the test.
# In an ASan build (MLKEM_SAN_PRELOAD set, see test/common/san.sh) the
# uninstrumented openssl runs with the compiler's ASan runtime preloaded and
# leak detection ON (san.sh's wrappers turn it off for general use), with
# full-stack unwinding for allocations (libcrypto has no frame pointers, so
# the fast unwinder would stop before mlkem.so); it exits normally after
# -naccept, LeakSanitizer then checks the whole process, and any report
# fails the test (s_server itself leaks nothing on this path). The client
# is an instrumented program with the preset's own ASAN_OPTIONS.
set -uo pipefail

soak=$1 moddir=$(realpath "$2") n=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-soak.XXXXXX")
spid=
cleanup() {
    [[ -n $spid ]] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"
# A broken step ends the soak: fail, then the verdict.
fatal() { fail "$@"; test_finish; }

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 -subj /CN=localhost \
    >/dev/null 2>&1 || fatal "cannot make a certificate"

# Both ends load the provider: the server through -provider, the client
# through this configuration.
write_provider_cnf "$tmp/openssl.cnf" "$moddir"

senv=()
if [[ -n ${MLKEM_SOAK_TSAN_PRELOAD:-} ]]; then
    mkdir -p "$tmp/san"
    senv=(env "LD_PRELOAD=$MLKEM_SOAK_TSAN_PRELOAD"
          "TSAN_OPTIONS=halt_on_error=1:log_path=$tmp/san/tsan")
elif [[ -n ${MLKEM_SAN_PRELOAD:-} ]]; then
    mkdir -p "$tmp/san"
    senv=(env "LD_PRELOAD=$MLKEM_SAN_PRELOAD"
          "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:halt_on_error=1:log_path=$tmp/san/asan"
          "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$tmp/san/ubsan")
fi
"${senv[@]}" openssl s_server -accept 127.0.0.1:0 -naccept $((n + 1)) -www \
    -cert "$tmp/cert.pem" -key "$tmp/key.pem" -tls1_3 -groups X25519MLKEM768 \
    -provider-path "$moddir" -provider mlkem -provider default \
    -no_ticket </dev/null >"$tmp/server.out" 2>"$tmp/server.err" &
spid=$!
port=
for _ in $(seq 200); do
    port=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$tmp/server.out")
    [[ -n $port ]] && break
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.1
done
[[ -n $port ]] || { cat "$tmp/server.err" >&2; fatal "s_server did not start"; }
echo "s_server (pid $spid) on 127.0.0.1:$port, $n connections"

OPENSSL_CONF=$tmp/openssl.cnf "$soak" tls "$port" "$n" "$spid"
rc=$?

# -naccept: the server leaves by itself after the last connection.
for _ in $(seq 300); do
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$spid" 2>/dev/null; then
    fatal "s_server still running after $n connections"
fi
wait "$spid"
src=$?
spid=

if [[ -d $tmp/san ]]; then
    for f in "$tmp"/san/*; do
        [[ -f $f ]] || continue
        echo "FAIL: sanitizer report from s_server:" >&2
        sed 's/^/    /' "$f" >&2
        rc=1
    done
    echo "LeakSanitizer checked s_server at exit"
fi
if [[ $src -ne 0 ]]; then
    tail -20 "$tmp/server.err" >&2
    fatal "s_server exited with $src"
fi
exit $rc
