#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_nginx_curl.sh: Debian 12's nginx and curl (OpenSSL 3.0), unchanged,
# speaking X25519MLKEM768 through the mlkem provider, configured with the
# files the README shows: examples/tls/openssl-pq.cnf (OPENSSL_CONF),
# examples/tls/nginx.conf (included in http{}), examples/tls/curl.sh.
#
#  - nginx runs as root from its own prefix in a temporary directory, on
#    127.0.0.1:<random free port>, in the foreground under `timeout`, and is
#    stopped by the test (SIGQUIT, then the EXIT trap);
#  - curl.sh (--curves X25519MLKEM768 only) fetches a page; nginx's access
#    log ($ssl_curve, from the example's log_format) must name
#    X25519MLKEM768: nginx 1.22 prints it as its codepoint "0x11ec", newer
#    nginx by name;
#  - a plain curl --curves x25519 is logged as X25519 (the log tells the two
#    apart), and curl.sh without the provider fails instead of falling back;
#  - the http{} around the example carries Debian's own ssl_protocols line
#    (/etc/nginx/nginx.conf's), as conf.d/ would: nginx -t prints no
#    warning (the example once repeated that line: 'duplicate value');
#  - nginx -t without OPENSSL_CONF (the hand-run check the recipe warns
#    about) fails and names the group it cannot set.
# Needs: nginx (Debian package "nginx"; "nginx-light" in bookworm is a
# metapackage depending on it) and curl; skips (77) when absent.
source "$(dirname "$0")/lib.sh"
need_provider
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || skip "nginx is not installed (apt-get install -y nginx)"
command -v curl >/dev/null || skip "curl is not installed (apt-get install -y curl)"
[ "$(id -u)" -eq 0 ] || skip "nginx is started as root by this test"
"$NGINX" -V 2>&1 | grep -q 'with OpenSSL 3' || skip "nginx is not built with OpenSSL 3"
make_cert
# Sanitizer builds: nginx (master and worker) and curl load mlkem.so, so
# they run with the sanitizer runtime preloaded; curl.sh finds the curl
# wrapper first on PATH.
NGINX=$(san_wrap "$NGINX")
if [ -n "$SAN_BIN" ]; then
    san_wrap curl >/dev/null
    PATH=$SAN_BIN:$PATH
fi

P=$TLS_TMP/nginx
mkdir -p "$P/logs" "$P/tmp"
# The worker processes (user nobody) only need to reach the prefix.
chmod 755 "$TLS_TMP" "$P"
cp "$CERT" "$KEY" "$P/"
export OPENSSL_CONF=$EXAMPLES/openssl-pq.cnf
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR

write_conf() {
    cat >"$P/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
error_log $P/logs/error.log info;
pid $P/logs/nginx.pid;
events { worker_connections 64; }
http {
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3; # Dropping SSLv3, ref: POODLE
    include $EXAMPLES/nginx.conf;
    access_log $P/logs/access.log pq;
    client_body_temp_path $P/tmp/body;
    proxy_temp_path $P/tmp/proxy;
    fastcgi_temp_path $P/tmp/fastcgi;
    uwsgi_temp_path $P/tmp/uwsgi;
    scgi_temp_path $P/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT ssl;
        server_name localhost;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_certificate $P/cert.pem;
        ssl_certificate_key $P/key.pem;
        location / { return 200 "post-quantum hello\n"; }
    }
}
EOF
}

# The configuration must pass nginx -t (the example names our groups, so
# this also proves that OPENSSL_CONF loaded the provider into nginx).
PORT=$(random_port) || { echo "FAIL: no free port" >&2; exit 1; }
write_conf
if out=$(timeout 20 "$NGINX" -t -p "$P" -c "$P/nginx.conf" 2>&1); then
    ok "nginx -t accepts examples/tls/nginx.conf (ssl_ecdh_curve X25519MLKEM768:...)"
else
    echo "FAIL: nginx -t: $out" >&2
    exit 1
fi
if grep -q '\[warn\]' <<<"$out"; then
    fail "nginx -t warns with Debian's ssl_protocols line in http{}: $(grep '\[warn\]' <<<"$out")"
else
    ok "nginx -t prints no warning next to Debian's http{} ssl_protocols line"
fi
if out=$(env -u OPENSSL_CONF timeout 20 "$NGINX" -t -p "$P" -c "$P/nginx.conf" 2>&1); then
    fail "nginx -t without OPENSSL_CONF passed: $out"
elif grep -q 'X25519MLKEM768' <<<"$out"; then
    ok "nginx -t without OPENSSL_CONF fails: $(grep -m1 -o 'SSL_CTX_set1_curves_list.*' <<<"$out" | cut -c1-160)"
else
    fail "nginx -t without OPENSSL_CONF: $out"
fi

NGINX_PID=
# random_port (test/common/lib.sh): nginx may still lose a race for the
# port, so this retries with another one.
for _ in 1 2 3 4 5; do
    PORT=$(random_port) || break
    write_conf
    : >"$P/logs/error.log"
    timeout -k 5 "$SERVER_LIFETIME" "$NGINX" -p "$P" -c "$P/nginx.conf" \
        >"$P/logs/stdout" 2>&1 </dev/null &
    NGINX_PID=$!
    TLS_PIDS+=("$NGINX_PID")
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break 2
        kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.1
    done
    stop_server "$NGINX_PID"
    NGINX_PID=
    grep -q 'Address already in use' "$P/logs/error.log" "$P/logs/stdout" || break
done
if [ -z "$NGINX_PID" ]; then
    echo "FAIL: nginx did not start" >&2
    cat "$P/logs/error.log" "$P/logs/stdout" >&2
    exit 1
fi
ok "nginx listening on 127.0.0.1:$PORT (OPENSSL_CONF=examples/tls/openssl-pq.cnf)"

URL=https://localhost:$PORT/
CURL_ARGS=(--cacert "$CERT" --resolve "localhost:$PORT:127.0.0.1" -sS --max-time 15)

# 1. The recipe: X25519MLKEM768 only.
if body=$(timeout 20 sh "$EXAMPLES/curl.sh" "${CURL_ARGS[@]}" "$URL" 2>&1) &&
    [ "$body" = "post-quantum hello" ]; then
    ok "curl.sh (--curves X25519MLKEM768) fetched the page"
else
    fail "curl.sh: $body"
fi
# 2. Classical, for contrast.
if body=$(timeout 20 curl --curves x25519 "${CURL_ARGS[@]}" "$URL" 2>&1) &&
    [ "$body" = "post-quantum hello" ]; then
    ok "curl --curves x25519 fetched the page"
else
    fail "curl --curves x25519: $body"
fi
# 3. The recipe without the provider must fail, not fall back.
if out=$(env -u OPENSSL_CONF -u OPENSSL_MODULES timeout 20 sh "$EXAMPLES/curl.sh" \
    "${CURL_ARGS[@]}" "$URL" 2>&1); then
    fail "curl.sh without the provider succeeded: $out"
else
    ok "curl.sh without the provider fails ($(echo "$out" | head -1))"
fi

# Stop nginx (graceful), then read the log it flushed.
kill -QUIT "$NGINX_PID" 2>/dev/null
wait "$NGINX_PID" 2>/dev/null
LOG=$P/logs/access.log
echo "access log:"
sed 's/^/    /' "$LOG"
line1=$(sed -n 1p "$LOG")
line2=$(sed -n 2p "$LOG")
case "$line1" in
    *"TLSv1.3"*" curve=0x11ec "* | *"TLSv1.3"*" curve=X25519MLKEM768 "*)
        ok "access log: curl.sh request negotiated X25519MLKEM768 ($(grep -o 'curve=[^ ]*' <<<"$line1"))" ;;
    *) fail "access log line 1 does not name X25519MLKEM768: $line1" ;;
esac
case "$line2" in
    *" curve=X25519 "*) ok "access log: the x25519 request says curve=X25519" ;;
    *) fail "access log line 2: $line2" ;;
esac
[ "$(wc -l <"$LOG")" -eq 2 ] || fail "access log has $(wc -l <"$LOG") lines, want 2"
grep -q '\[emerg\]\|\[alert\]' "$P/logs/error.log" && fail "nginx error log: $(grep '\[emerg\]\|\[alert\]' "$P/logs/error.log")"

finish
