#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_haproxy.sh: Debian 12's HAProxy 2.6 (OpenSSL 3.0), unchanged,
# speaking X25519MLKEM768 through the mlkem provider with the global lines
# of examples/tls/haproxy.cfg, which load the provider themselves
# (ssl-provider): no OPENSSL_CONF, only OPENSSL_MODULES pointing at the
# build tree, where an installed package would use OpenSSL's modules
# directory.
#
#  - haproxy -c accepts the recipe, and refuses it when mlkem.so cannot be
#    found ("unknown provider": the loud failure the recipe promises);
#  - haproxy runs in the foreground (-db) on 127.0.0.1:<random port> under
#    `timeout`, answering every request itself (http-request return);
#  - OpenSSL 3.5's own s_client offering only X25519MLKEM768 (no provider:
#    an independent implementation) gets the page, and its trace shows the
#    ServerHello key share 4588; curl.sh (curl 3.0 with the provider,
#    X25519MLKEM768 only) gets the page;
#  - an x25519-only client is served with x25519 (the list keeps it);
#  - without the recipe's lines, OPENSSL_CONF=openssl-pq.cnf alone serves
#    the X25519MLKEM768-only client too.
# Needs haproxy (Debian package "haproxy"), curl, the OpenSSL 3.5 peer.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/daemons.sh"
need_provider
need_openssl35
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$HAPROXY" ] || skip "haproxy is not installed (apt-get install -y haproxy)"
command -v curl >/dev/null || skip "curl is not installed (apt-get install -y curl)"
make_cert
HAPROXY=$(san_wrap "$HAPROXY")
if [ -n "$SAN_BIN" ]; then
    san_wrap curl >/dev/null
    PATH=$SAN_BIN:$PATH
fi

P=$TLS_TMP/haproxy
mkdir -p "$P"
cat "$CERT" "$KEY" >"$P/site.pem"
# haproxy.cfg loads the provider by itself; curl.sh needs OPENSSL_CONF.
unset OPENSSL_CONF
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR

write_conf() {
    cat >"$P/test.cfg" <<CONF
defaults
    mode http
    timeout connect 5s
    timeout client 10s
    timeout server 10s
    log stdout format raw local0
    option httplog
frontend pq
    bind 127.0.0.1:$PORT ssl crt $P/site.pem
    log-format "%ci %r %ST %[ssl_fc_protocol] %[ssl_fc_cipher]"
    http-request return status 200 content-type text/plain string "post-quantum hello\n"
CONF
}

# 1. The configuration check, with and without the module.
PORT=$(random_port) || { echo "FAIL: no free port" >&2; exit 1; }
write_conf
if out=$(timeout 20 "$HAPROXY" -c -f "$EXAMPLES/haproxy.cfg" -f "$P/test.cfg" 2>&1); then
    ok "haproxy -c accepts examples/tls/haproxy.cfg (ssl-provider mlkem, curves X25519MLKEM768:...)"
else
    echo "FAIL: haproxy -c: $out" >&2
    exit 1
fi
if out=$(OPENSSL_MODULES=/nonexistent timeout 20 "$HAPROXY" -c -f "$EXAMPLES/haproxy.cfg" \
    -f "$P/test.cfg" 2>&1); then
    fail "haproxy -c accepts the recipe without mlkem.so: $out"
else
    ok "without mlkem.so haproxy -c refuses it: $(grep -m1 -o "ssl-provider[^.]*" <<<"$out" || head -n1 <<<"$out")"
fi

# 2. The server.
start_daemon haproxy write_conf "$HAPROXY" -db -f "$EXAMPLES/haproxy.cfg" -f "$P/test.cfg" ||
    exit 1
ok "haproxy listening on 127.0.0.1:$PORT"

# 3. OpenSSL 3.5's built-in X25519MLKEM768, nothing else offered.
expect_served "$PORT" X25519MLKEM768 4588 "$TLS_TMP/c35.out" "OpenSSL 3.5, X25519MLKEM768 only"
# 4. curl.sh (curl on 3.0 + provider through openssl-pq.cnf).
CURL_ARGS=(--cacert "$CERT" --resolve "localhost:$PORT:127.0.0.1" -sS --max-time 15)
if body=$(OPENSSL_CONF=$EXAMPLES/openssl-pq.cnf timeout 20 sh "$EXAMPLES/curl.sh" \
    "${CURL_ARGS[@]}" "https://localhost:$PORT/" 2>&1) && [ "$body" = "post-quantum hello" ]; then
    ok "curl.sh (--curves X25519MLKEM768) fetched the page"
else
    fail "curl.sh: $body"
fi
# 5. A classical client still gets x25519.
expect_served "$PORT" x25519 29 "$TLS_TMP/c35x.out" "an x25519-only client"

stop_daemon "$DAEMON_PID"

# 6. openssl.cnf alone: no haproxy.cfg lines, provider and Groups from
# openssl-pq.cnf.
OPENSSL_CONF=$EXAMPLES/openssl-pq.cnf start_daemon haproxy-cnf write_conf \
    "$HAPROXY" -db -f "$P/test.cfg" || exit 1
expect_served "$PORT" X25519MLKEM768 4588 "$TLS_TMP/cnf.out" "openssl-pq.cnf alone (no haproxy.cfg lines), X25519MLKEM768-only client"
stop_daemon "$DAEMON_PID"
echo "haproxy log:"
sed 's/^/    /' "$TLS_TMP/haproxy.log"
[ "$(grep -c ' 200 TLSv1.3 ' "$TLS_TMP/haproxy.log")" -eq 3 ] &&
    ok "log: 3 requests served over TLSv1.3" ||
    fail "log: want 3 TLSv1.3 requests with status 200"
finish
