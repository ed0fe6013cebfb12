#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_apache2.sh: Debian 12's Apache httpd (mod_ssl, OpenSSL 3.0),
# unchanged, speaking X25519MLKEM768 through the mlkem provider, configured
# with the files the documentation shows: examples/tls/openssl-pq.cnf
# (OPENSSL_CONF, as /etc/apache2/envvars would export it) and
# examples/tls/apache2.conf (Included at server level).
#
#  - without the provider apache2 refuses to start (the recipe's Groups line
#    names X25519MLKEM768: the loud failure it promises);
#  - apache2 runs as root from a temporary directory on 127.0.0.1:<random
#    port>, in the foreground under `timeout`;
#  - OpenSSL 3.5's own s_client offering only X25519MLKEM768 (no provider:
#    an independent implementation) gets the page, and its trace shows the
#    ServerHello key share 4588 (X25519MLKEM768); curl.sh (curl 3.0 with
#    the provider, X25519MLKEM768 only) gets the page;
#  - an x25519-only client is served with x25519 (the list keeps it);
#  - without apache2.conf, openssl-pq.cnf's Groups line alone serves the
#    X25519MLKEM768-only client too.
# Needs apache2 (Debian package "apache2"), curl, the OpenSSL 3.5 peer.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/daemons.sh"
need_provider
need_openssl35
APACHE=$(command -v apache2 || echo /usr/sbin/apache2)
MODS=/usr/lib/apache2/modules
[ -x "$APACHE" ] && [ -f "$MODS/mod_ssl.so" ] ||
    skip "apache2 is not installed (apt-get install -y apache2)"
command -v curl >/dev/null || skip "curl is not installed (apt-get install -y curl)"
[ "$(id -u)" -eq 0 ] || skip "apache2 is started as root by this test"
make_cert
APACHE=$(san_wrap "$APACHE")
if [ -n "$SAN_BIN" ]; then
    san_wrap curl >/dev/null
    PATH=$SAN_BIN:$PATH
fi

P=$TLS_TMP/apache2
mkdir -p "$P/www" "$P/run"
chmod 755 "$TLS_TMP" "$P" "$P/www"
echo "post-quantum hello" >"$P/www/index.html"
chmod 644 "$P/www/index.html"
export OPENSSL_CONF=$EXAMPLES/openssl-pq.cnf
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR

write_conf() {
    cat >"$P/httpd.conf" <<CONF
ServerName localhost
Listen 127.0.0.1:$PORT
PidFile $P/run/apache2.pid
DefaultRuntimeDir $P/run
Mutex file:$P/run default
ErrorLog $P/error.log
LogLevel warn ssl:info
User nobody
Group nogroup
LoadModule mpm_event_module $MODS/mod_mpm_event.so
LoadModule authz_core_module $MODS/mod_authz_core.so
LoadModule dir_module $MODS/mod_dir.so
LoadModule socache_shmcb_module $MODS/mod_socache_shmcb.so
LoadModule ssl_module $MODS/mod_ssl.so
LogFormat "%h \"%r\" %>s %{SSL_PROTOCOL}x %{SSL_CIPHER}x" pq
CustomLog $P/access.log pq
$([ "${NO_RECIPE:-0}" = 1 ] || echo "Include $EXAMPLES/apache2.conf")
<VirtualHost 127.0.0.1:$PORT>
    ServerName localhost
    SSLEngine on
    SSLCertificateFile $CERT
    SSLCertificateKeyFile $KEY
    DocumentRoot $P/www
    DirectoryIndex index.html
    <Directory $P/www>
        Require all granted
    </Directory>
</VirtualHost>
CONF
}

# 1. Without the provider apache2 must refuse to start (the loud failure the
# recipe promises; `apache2 -t` does not apply SSLOpenSSLConfCmd, so it
# cannot tell).
PORT=$(random_port) || { echo "FAIL: no free port" >&2; exit 1; }
write_conf
if out=$(timeout 20 "$APACHE" -t -d "$P" -f "$P/httpd.conf" 2>&1); then
    ok "apache2 -t: $out"
else
    echo "FAIL: apache2 -t: $out" >&2
    exit 1
fi
# apache2 binds its port before it sets up TLS: a port taken meanwhile is
# retried with another one.
for _ in 1 2 3 4 5; do
    : >"$P/error.log"
    if env -u OPENSSL_CONF OPENSSL_MODULES=/nonexistent timeout -k 5 20 "$APACHE" \
        -d "$P" -f "$P/httpd.conf" -DFOREGROUND >"$TLS_TMP/noprov.log" 2>&1 </dev/null; then
        break
    fi
    grep -qi 'address already in use\|could not bind' "$P/error.log" "$TLS_TMP/noprov.log" || break
    PORT=$(random_port) || break
    write_conf
done
if grep -q 'SSLOpenSSLConfCmd Groups X25519MLKEM768.*failed' "$P/error.log"; then
    ok "without the provider apache2 refuses to start: $(grep -o 'AH02407.*' "$P/error.log" | head -n1)"
else
    fail "apache2 without the provider: no SSLOpenSSLConfCmd error: $(cat "$P/error.log" "$TLS_TMP/noprov.log")"
fi
: >"$P/error.log"

# 2. The server.
start_daemon apache2 write_conf "$APACHE" -d "$P" -f "$P/httpd.conf" -DFOREGROUND ||
    { cat "$P/error.log" >&2; exit 1; }
ok "apache2 listening on 127.0.0.1:$PORT"

# 3. OpenSSL 3.5's built-in X25519MLKEM768, nothing else offered.
expect_served "$PORT" X25519MLKEM768 4588 "$TLS_TMP/c35.out" "OpenSSL 3.5, X25519MLKEM768 only"
# 4. curl.sh (curl on 3.0 + provider, X25519MLKEM768 only).
CURL_ARGS=(--cacert "$CERT" --resolve "localhost:$PORT:127.0.0.1" -sS --max-time 15)
if body=$(timeout 20 sh "$EXAMPLES/curl.sh" "${CURL_ARGS[@]}" "https://localhost:$PORT/" 2>&1) &&
    [ "$body" = "post-quantum hello" ]; then
    ok "curl.sh (--curves X25519MLKEM768) fetched the page"
else
    fail "curl.sh: $body"
fi
# 5. A classical client still gets x25519.
expect_served "$PORT" x25519 29 "$TLS_TMP/c35x.out" "an x25519-only client"

stop_daemon "$DAEMON_PID"

# 6. openssl.cnf alone: no Include of the recipe, Groups from openssl-pq.cnf.
NO_RECIPE=1 start_daemon apache2-cnf write_conf "$APACHE" -d "$P" -f "$P/httpd.conf" -DFOREGROUND ||
    { cat "$P/error.log" >&2; exit 1; }
expect_served "$PORT" X25519MLKEM768 4588 "$TLS_TMP/cnf.out" "openssl-pq.cnf alone (no apache2.conf), X25519MLKEM768-only client"
stop_daemon "$DAEMON_PID"
echo "access log:"
sed 's/^/    /' "$P/access.log"
[ "$(grep -c ' 200 TLSv1.3 ' "$P/access.log")" -eq 4 ] &&
    ok "access log: 4 requests served over TLSv1.3" ||
    fail "access log: want 4 TLSv1.3 requests with status 200"
grep -q '\[ssl:emerg\]\|\[core:emerg\]\|\[ssl:alert\]' "$P/error.log" &&
    fail "apache2 error log: $(grep 'emerg\]\|alert\]' "$P/error.log")"
finish
