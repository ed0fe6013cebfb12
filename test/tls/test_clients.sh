#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_clients.sh: the client rows of the README's "Which programs pick it
# up" table, each against OpenSSL 3.5's own s_server accepting only
# X25519MLKEM768 (no provider: an independent implementation), with
# examples/tls/openssl-pq.cnf as OPENSSL_CONF:
#
#  - Python's urllib (ssl.create_default_context, no group set by the
#    program) gets the page through openssl.cnf's Groups line, and fails
#    without the provider;
#  - Python's SSLContext.set_ecdh_curve("X25519MLKEM768") raises
#    ValueError (it takes one classical curve name only);
#  - wget fails even with openssl-pq.cnf (Debian's wget uses GnuTLS), and
#    reaches an x25519 server (control);
#  - socat 1.7 fails even with openssl-pq.cnf: it offers P-256 alone (it
#    reaches a P-256 server, not an x25519 one);
#  - openssl s_client (3.0) connects; the README's check, which reads the
#    ServerHello only, prints NamedGroup ... (4588), while `-brief` on 3.0
#    names no group at all (which is why the README does not use it);
#  - the README shows that check verbatim.
# Needs python3, wget, socat, the OpenSSL 3.5 peer.
source "$(dirname "$0")/lib.sh"
need_provider
need_openssl35
command -v python3 >/dev/null || skip "python3 is not installed"
command -v wget >/dev/null || skip "wget is not installed (apt-get install -y wget)"
make_cert
PY=$(san_wrap python3)
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR
CNF=$EXAMPLES/openssl-pq.cnf

start_server s35 env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
        "$O35_PREFIX/bin/openssl" s_server \
    -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" -groups X25519MLKEM768 -tls1_3 -www ||
    { echo "FAIL: OpenSSL 3.5 s_server did not start" >&2; exit 1; }
PORT=$SERVER_PORT
URL=https://localhost:$PORT/

# ---- Python ------------------------------------------------------------------
PYGET='import ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[1])
with urllib.request.urlopen(sys.argv[2], context=ctx, timeout=15) as r:
    body = r.read().decode("latin-1")
print("HTTP", r.status, "ok" if "Ciphers supported" in body else "unexpected page")'
if out=$(OPENSSL_CONF=$CNF timeout 30 "$PY" -c "$PYGET" "$CERT" "$URL" 2>&1) &&
    [ "$out" = "HTTP 200 ok" ]; then
    ok "python3 urllib with openssl-pq.cnf: page from the X25519MLKEM768-only server"
else
    fail "python3 urllib with openssl-pq.cnf: $out"
fi
if out=$(env -u OPENSSL_CONF timeout 30 "$PY" -c "$PYGET" "$CERT" "$URL" 2>&1); then
    fail "python3 urllib without the provider reached the X25519MLKEM768-only server: $out"
else
    ok "python3 urllib without the provider fails ($(tail -n 1 <<<"$out" | cut -c1-90))"
fi
PYCURVE='import ssl
try:
    ssl.create_default_context().set_ecdh_curve("X25519MLKEM768")
    print("accepted")
except ValueError as e:
    print("ValueError:", e)'
out=$(OPENSSL_CONF=$CNF timeout 30 "$PY" -c "$PYCURVE" 2>&1)
case "$out" in
    ValueError:*) ok "python3 set_ecdh_curve('X25519MLKEM768') is refused ($out)" ;;
    *) fail "python3 set_ecdh_curve('X25519MLKEM768'): $out (the README says it is refused)" ;;
esac

# ---- wget (GnuTLS) -----------------------------------------------------------
wget_get() { OPENSSL_CONF=$CNF timeout 30 wget -q -O - --tries=1 --timeout=10 \
    --ca-certificate="$CERT" "$1" 2>&1; }
if out=$(wget_get "$URL"); then
    fail "wget reached the X25519MLKEM768-only server (the README says it cannot): $out"
else
    ok "wget (GnuTLS) cannot reach the X25519MLKEM768-only server, openssl.cnf or not"
fi
# Control: the same wget reaches the same kind of server offering x25519.
start_server s35x env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
        "$O35_PREFIX/bin/openssl" s_server \
    -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" -groups x25519 -tls1_3 -www ||
    { echo "FAIL: OpenSSL 3.5 s_server (x25519) did not start" >&2; exit 1; }
SERVER_PORT_X25519=$SERVER_PORT
if out=$(wget_get "https://localhost:$SERVER_PORT/") && grep -q 'Ciphers supported' <<<"$out"; then
    ok "control: wget reaches an x25519 server (the failure above is the group)"
else
    fail "control: wget cannot reach an x25519 server either: $(head -n 2 <<<"$out")"
fi

# ---- socat 1.7 (offers P-256 alone) --------------------------------------------
if command -v socat >/dev/null; then
    SOCAT=$(san_wrap socat)
    socat_get() {
        printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$CNF timeout 20 \
            "$SOCAT" - "OPENSSL:localhost:$1,cafile=$CERT" 2>&1
    }
    if out=$(socat_get "$PORT") && grep -q 'Ciphers supported' <<<"$out"; then
        fail "socat reached the X25519MLKEM768-only server (the README says it cannot)"
    else
        ok "socat cannot reach the X25519MLKEM768-only server, openssl.cnf or not"
    fi
    start_server s35p env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
        "$O35_PREFIX/bin/openssl" s_server \
        -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" -groups P-256 -tls1_3 -www ||
        { echo "FAIL: OpenSSL 3.5 s_server (P-256) did not start" >&2; exit 1; }
    p256=$SERVER_PORT
    if out=$(socat_get "$p256") && grep -q 'Ciphers supported' <<<"$out"; then
        ok "control: socat reaches a P-256 server"
    else
        fail "control: socat cannot reach a P-256 server either: $(head -n 2 <<<"$out")"
    fi
    if out=$(socat_get "$SERVER_PORT_X25519") && grep -q 'Ciphers supported' <<<"$out"; then
        fail "socat reached the x25519-only server: it does not offer P-256 alone"
    else
        ok "socat cannot reach an x25519-only server either: it offers P-256 alone"
    fi
else
    fail "socat is not installed (scripts/deps.sh installs it)"
fi

# ---- openssl s_client 3.0 and the README's check ------------------------------
# The check as the README prints it, on the trace of a real connection.
CHECK='awk '"'"'/ServerHello, Length=/ { s = 1 } s && /NamedGroup:/ { print; exit }'"'"
OPENSSL_CONF=$CNF timeout 20 "$O30" s_client -connect "127.0.0.1:$PORT" -trace \
    </dev/null >"$TLS_TMP/trace.out" 2>/dev/null
line=$(eval "$CHECK" <"$TLS_TMP/trace.out")
case "$line" in
    *"NamedGroup:"*"(4588)") ok "the README's ServerHello check: '$(echo $line)'" ;;
    *) fail "ServerHello check printed '$line'" ;;
esac
OPENSSL_CONF=$CNF timeout 20 "$O30" s_client -connect "127.0.0.1:$PORT" -brief \
    </dev/null >"$TLS_TMP/brief.out" 2>&1
if grep -q 'CONNECTION ESTABLISHED' "$TLS_TMP/brief.out" && ! grep -qi 'group' "$TLS_TMP/brief.out"; then
    ok "openssl s_client -brief (3.0) connects and names no group"
else
    fail "s_client -brief on 3.0: $(cat "$TLS_TMP/brief.out")"
fi
if grep -qF "$CHECK" "$MLKEM_SOURCE_DIR/README.md"; then
    ok "README.md shows the ServerHello check verbatim"
else
    fail "README.md does not show the check: $CHECK"
fi
finish
