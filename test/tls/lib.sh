# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034
# lib.sh: shared helpers for the TLS shell tests (sourced, bash), on top of
# test/common/lib.sh (ok, fail, skip, peer_prefix, random_port).
#
# Every server binds 127.0.0.1 only, on a port the kernel picks (port 0; the
# server prints "ACCEPT 127.0.0.1:<port>") or, for nginx, a random free
# port. Every server runs under `timeout` (a hard upper bound on its life)
# and is stopped by the test; the EXIT trap kills whatever is left and
# removes the temporary directory.
#
# Environment (set by test/tls/CMakeLists.txt):
#   MLKEM_PROVIDER_DIR      directory holding mlkem.so
#   MLKEM_PEER              the 3.5+ peer release the tests run against:
#                           3.5 (default) or 4.0 (the tls_*40 tests); its
#                           prefix is what scripts/openssl-peer.sh
#                           <release> --print-prefix says (from
#                           MLKEM_OPENSSL35_PREFIX / MLKEM_OPENSSL40_PREFIX)
#   MLKEM_SOURCE_DIR        source tree (examples/tls/)
#   MLKEM_TLS_BADSHARE, MLKEM_TLS_CAPS, MLKEM_TLS_INPROC   test binaries
#   MLKEM_SANITIZE, MLKEM_SAN_PRELOAD  sanitizer builds (test/common/san.sh):
#                           every openssl/nginx/curl that may load mlkem.so
#                           runs with the sanitizer runtime preloaded ($O30,
#                           $O35W, o35, san_wrap), and finish fails on any
#                           sanitizer report of any process of the test

set -u

# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"
TLS_PIDS=()
TLS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-tls.XXXXXX") || exit 1
SERVER_LIFETIME=${SERVER_LIFETIME:-120}
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-20}

tls_cleanup() {
    local p
    for p in "${TLS_PIDS[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${TLS_PIDS[@]}"; do
        wait "$p" 2>/dev/null
    done
    rm -rf "$TLS_TMP"
}
trap tls_cleanup EXIT

# Any sanitizer report of any process of the test is one more failure.
finish() {
    san_check "$TLS_TMP" || TEST_FAILS=$((TEST_FAILS + 1))
    test_finish
}

# ---- tools ----------------------------------------------------------------

# shellcheck source-path=SCRIPTDIR source=../common/san.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/san.sh"
san_init "$TLS_TMP" || true
O30=$(san_wrap "${MLKEM_OPENSSL30:-openssl}")
# The peer: PEER is its release, O35_PREFIX its prefix, empty when absent
# (the name is from when 3.5 was the only one).
PEER=${MLKEM_PEER:-3.5}
O35_PREFIX=$(peer_prefix "$PEER")
# The peer's binary as it is run (a wrapper in sanitizer builds); give
# it LD_LIBRARY_PATH=$O35_PREFIX/lib, as o35 and the tests' O35BIN do.
O35W=$(san_wrap "$O35_PREFIX/bin/openssl")
EXAMPLES=${MLKEM_SOURCE_DIR:?MLKEM_SOURCE_DIR not set}/examples/tls

need_provider() {
    [ -z "$SAN_WHY" ] ||
        skip "sanitizer build (MLKEM_SANITIZE=$MLKEM_SANITIZE): $SAN_WHY; openssl/nginx/curl cannot load an instrumented mlkem.so without it"
    [ -n "${MLKEM_PROVIDER_DIR:-}" ] && [ -f "$MLKEM_PROVIDER_DIR/mlkem.so" ] ||
        skip "mlkem.so not built (MLKEM_PROVIDER_DIR=${MLKEM_PROVIDER_DIR:-unset})"
    case "$($O30 version 2>/dev/null)" in
        "OpenSSL 3."*) ;;
        *) skip "no OpenSSL 3 command line ($O30)" ;;
    esac
    PROV=(-provider-path "$MLKEM_PROVIDER_DIR" -provider mlkem -provider default)
}

# The peer of release $PEER (3.5 unless MLKEM_PEER says otherwise).
need_openssl35() {
    [ -n "$O35_PREFIX" ] ||
        skip "no OpenSSL $PEER peer (scripts/openssl-peer.sh $PEER --print-prefix finds none; run scripts/openssl-peer.sh $PEER)"
}

# The peer's command line.
o35() { LD_LIBRARY_PATH="$O35_PREFIX/lib" "$O35W" "$@"; }

# group name -> IANA codepoint (decimal, as -trace prints it)
group_id() {
    case "$1" in
        X25519MLKEM768) echo 4588 ;;
        SecP256r1MLKEM768) echo 4587 ;;
        SecP384r1MLKEM1024) echo 4589 ;;
        MLKEM512) echo 512 ;;
        MLKEM768) echo 513 ;;
        MLKEM1024) echo 514 ;;
        x25519 | X25519) echo 29 ;;
        *) echo 0 ;;
    esac
}
GROUPS6=(X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024 MLKEM512 MLKEM768 MLKEM1024)

# A self-signed ECDSA P-256 certificate for localhost / 127.0.0.1.
make_cert() {
    CERT=$TLS_TMP/cert.pem
    KEY=$TLS_TMP/key.pem
    $O30 req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$KEY" -out "$CERT" -days 2 -subj /CN=localhost \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" >/dev/null 2>&1 ||
        { echo "FAIL: cannot make a certificate" >&2; exit 1; }
}

# ---- servers --------------------------------------------------------------

# start_server NAME CMD...: run an `openssl s_server -accept 127.0.0.1:0 ...`
# command (any env assignments via `env`), wait (<= 10 s) for its ACCEPT
# line. Sets SERVER_PID and SERVER_PORT; output in $TLS_TMP/NAME.{out,err}.
start_server() {
    local name=$1 i
    shift
    timeout -k 2 "$SERVER_LIFETIME" stdbuf -oL "$@" \
        >"$TLS_TMP/$name.out" 2>"$TLS_TMP/$name.err" </dev/null &
    SERVER_PID=$!
    TLS_PIDS+=("$SERVER_PID")
    SERVER_PORT=
    for i in $(seq 100); do
        SERVER_PORT=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' \
            "$TLS_TMP/$name.out" 2>/dev/null)
        [ -n "$SERVER_PORT" ] && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "server $name did not start:" >&2
    cat "$TLS_TMP/$name.err" >&2
    return 1
}

# stop_server PID: SIGTERM, then wait (timeout -k bounds it anyway).
stop_server() {
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 0
}

# wait_server PID: wait (<= 10 s) for a -naccept server to exit by itself.
wait_server() {
    local i
    for i in $(seq 100); do
        kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
        sleep 0.1
    done
    stop_server "$1"
    return 1
}

# ---- clients and proofs ---------------------------------------------------

# http_client OUT CMD...: run an s_client command that sends an HTTP GET
# (the servers use -www), bounded by CLIENT_TIMEOUT; output in OUT.
http_client() {
    local out=$1
    shift
    printf 'GET / HTTP/1.0\r\n\r\n' |
        timeout -k 2 "$CLIENT_TIMEOUT" "$@" >"$out" 2>&1
}

# trace_group FILE: the group in the first ServerHello (or
# HelloRetryRequest) of an -trace output, as a decimal codepoint.
trace_group() {
    awk '/ServerHello, Length=/ { sh = 1 }
         sh && /NamedGroup:/ { s = $0; sub(/.*\(/, "", s); sub(/\).*/, "", s); print s; exit }' "$1"
}

# got_page FILE: the -www status page came back over the TLS connection
# (not anchored: with -trace, s_client's page output can start mid-line).
got_page() { grep -q 'HTTP/1.0 200 ok' "$1"; }
