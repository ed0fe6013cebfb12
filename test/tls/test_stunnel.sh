#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_stunnel.sh: Debian 12's stunnel 5 (OpenSSL 3.0), unchanged, speaking
# X25519MLKEM768 through the mlkem provider (examples/tls/openssl-pq.cnf as
# OPENSSL_CONF) with the service lines of examples/tls/stunnel.conf, as a
# server and as a client, each against a peer that accepts only the hybrid:
#
#  - server: stunnel on 127.0.0.1:<random port> in front of a plain HTTP
#    server (Python's http.server) answering "post-quantum hello"; OpenSSL
#    3.5's own s_client offering only
#    X25519MLKEM768 (no provider: an independent implementation) gets the
#    answer and its trace shows the ServerHello key share 4588;
#  - client: stunnel (client = yes) forwards plain connections to OpenSSL
#    3.5's s_server accepting only X25519MLKEM768 (-www page);
#  - both again WITHOUT the curves line, openssl-pq.cnf still loaded: the
#    handshake fails, because stunnel sets its own groups and ignores
#    openssl.cnf's Groups line (why the recipe needs that line).
# Needs stunnel4 (Debian package), python3, the OpenSSL 3.5 peer.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/daemons.sh"
need_provider
need_openssl35
STUNNEL=$(command -v stunnel4 || command -v stunnel || echo /usr/bin/stunnel4)
[ -x "$STUNNEL" ] || skip "stunnel is not installed (apt-get install -y stunnel4)"
make_cert
STUNNEL=$(san_wrap "$STUNNEL")

P=$TLS_TMP/stunnel
mkdir -p "$P"
mkdir -p "$P/www"
echo "post-quantum hello" >"$P/www/index.html"
export OPENSSL_CONF=$EXAMPLES/openssl-pq.cnf
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR
RECIPE=$EXAMPLES/stunnel.conf

# The service lines: the recipe, or (NO_RECIPE=1) nothing.
recipe() { [ "${NO_RECIPE:-0}" = 1 ] || cat "$RECIPE"; }
write_server() {
    { printf 'foreground = yes\npid =\ndebug = 5\n[pq-server]\n'
      printf 'accept = 127.0.0.1:%s\ncert = %s\nkey = %s\n' "$PORT" "$CERT" "$KEY"
      printf 'connect = 127.0.0.1:%s\n' "$BACKEND_PORT"
      recipe; } >"$P/server.conf"
}
write_client() {
    { printf 'foreground = yes\npid =\ndebug = 5\n[pq-client]\nclient = yes\n'
      printf 'accept = 127.0.0.1:%s\nconnect = 127.0.0.1:%s\n' "$PORT" "$S35_PORT"
      recipe; } >"$P/client.conf"
}

# The plain-HTTP service behind the stunnel server: Python's http.server,
# without OpenSSL's configuration (it needs no TLS, and in sanitizer builds
# must not load the instrumented module).
write_backend() {
    printf '#!/bin/sh\nexec env -u OPENSSL_CONF -u OPENSSL_MODULES python3 -m http.server --bind 127.0.0.1 --directory "%s" %s\n' \
        "$P/www" "$PORT" >"$P/backend.sh"
}
start_daemon backend write_backend sh "$P/backend.sh" ||
    { echo "FAIL: the HTTP backend did not start" >&2; exit 1; }
BACKEND_PORT=$PORT

# ---- stunnel as the server -------------------------------------------------
server_case() { # server_case LABEL WANT(ok|fail)
    local label=$1 want=$2 g
    start_daemon "stunnel-server-$label" write_server "$STUNNEL" "$P/server.conf" || exit 1
    page_35 "$PORT" X25519MLKEM768 "$TLS_TMP/s-$label.out"
    g=$(trace_group "$TLS_TMP/s-$label.out")
    stop_daemon "$DAEMON_PID"
    if [ "$want" = ok ]; then
        if [ "$g" = 4588 ] && hello_of "$TLS_TMP/s-$label.out"; then
            ok "stunnel server ($label): OpenSSL 3.5 X25519MLKEM768-only client served, ServerHello group 4588"
        else
            fail "stunnel server ($label): group '$g'; $(tail -n 5 "$TLS_TMP/s-$label.out")"
            cat "$TLS_TMP/stunnel-server-$label.log" >&2
        fi
    elif hello_of "$TLS_TMP/s-$label.out"; then
        fail "stunnel server ($label): served a X25519MLKEM768-only client without the curves line"
    else
        ok "stunnel server ($label): X25519MLKEM768-only client refused"
    fi
}
server_case recipe ok
NO_RECIPE=1 server_case "no curves line" fail

# ---- stunnel as the client -------------------------------------------------
start_server s35 env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
        "$O35_PREFIX/bin/openssl" s_server \
    -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" -groups X25519MLKEM768 -tls1_3 -www ||
    { echo "FAIL: OpenSSL 3.5 s_server did not start" >&2; exit 1; }
S35_PORT=$SERVER_PORT
client_case() { # client_case LABEL WANT(ok|fail)
    local label=$1 want=$2 out=$TLS_TMP/c-$1.out
    start_daemon "stunnel-client-$label" write_client "$STUNNEL" "$P/client.conf" || exit 1
    # Plain HTTP to stunnel: curl needs no provider (and, in sanitizer
    # builds, must not load the instrumented one).
    env -u OPENSSL_CONF -u OPENSSL_MODULES timeout 20 curl -sS --max-time 15 \
        "http://127.0.0.1:$PORT/" >"$out" 2>&1
    stop_daemon "$DAEMON_PID"
    if [ "$want" = ok ]; then
        # s_server -www's page names the shared groups and the key exchange.
        if grep -q 'HTTP/1.0 200 ok' "$out" || grep -q 'Ciphers supported' "$out"; then
            ok "stunnel client ($label): OpenSSL 3.5 X25519MLKEM768-only server answered"
        else
            fail "stunnel client ($label): $(head -n 3 "$out")"
            cat "$TLS_TMP/stunnel-client-$label.log" >&2
        fi
    elif grep -q 'Ciphers supported' "$out"; then
        fail "stunnel client ($label): reached the X25519MLKEM768-only server without the curves line"
    else
        ok "stunnel client ($label): the X25519MLKEM768-only server refused it"
    fi
}
client_case recipe ok
NO_RECIPE=1 client_case "no curves line" fail
finish
