#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_nginx_cnf.sh: Debian 12's nginx with openssl.cnf alone: no
# ssl_ecdh_curve (nginx's default "auto" leaves the groups to OpenSSL), the
# provider and the Groups line from examples/tls/openssl-pq.cnf in the
# master process's environment. OpenSSL 3.5's own s_client offering only
# X25519MLKEM768 (no provider) gets the page, ServerHello group 4588; the
# same server without OPENSSL_CONF refuses that client. (The recipe with
# ssl_ecdh_curve is test_nginx_curl.sh.)
# Needs nginx, the OpenSSL 3.5 peer.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/daemons.sh"
need_provider
need_openssl35
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || skip "nginx is not installed (apt-get install -y nginx)"
[ "$(id -u)" -eq 0 ] || skip "nginx is started as root by this test"
make_cert
NGINX=$(san_wrap "$NGINX")
P=$TLS_TMP/nginx
mkdir -p "$P/logs" "$P/tmp"
chmod 755 "$TLS_TMP" "$P"
export OPENSSL_MODULES=$MLKEM_PROVIDER_DIR

write_conf() {
    cat >"$P/nginx.conf" <<CONF
daemon off;
worker_processes 1;
error_log $P/logs/error.log info;
pid $P/logs/nginx.pid;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $P/tmp/body;
    proxy_temp_path $P/tmp/proxy;
    fastcgi_temp_path $P/tmp/fastcgi;
    uwsgi_temp_path $P/tmp/uwsgi;
    scgi_temp_path $P/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT ssl;
        ssl_certificate $CERT;
        ssl_certificate_key $KEY;
        ssl_protocols TLSv1.2 TLSv1.3;
        location / { return 200 "post-quantum hello\n"; }
    }
}
CONF
}

# case LABEL WANT(ok|fail) [env assignments...]
case_() {
    local label=$1 want=$2 g
    shift 2
    start_daemon "nginx-$label" write_conf env "$@" "$NGINX" -p "$P" -c "$P/nginx.conf" || exit 1
    page_35 "$PORT" X25519MLKEM768 "$TLS_TMP/$label.out"
    g=$(trace_group "$TLS_TMP/$label.out")
    stop_daemon "$DAEMON_PID"
    if [ "$want" = ok ] && [ "$g" = 4588 ] && hello_of "$TLS_TMP/$label.out"; then
        ok "nginx, $label: X25519MLKEM768-only client served, ServerHello group 4588"
    elif [ "$want" = fail ] && ! hello_of "$TLS_TMP/$label.out"; then
        ok "nginx, $label: X25519MLKEM768-only client refused"
    else
        fail "nginx, $label: group '$g', want $want; $(tail -n 4 "$TLS_TMP/$label.out")"
    fi
}
case_ "openssl-pq.cnf, no ssl_ecdh_curve" ok OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf"
case_ "no OPENSSL_CONF" fail -u OPENSSL_CONF
finish
