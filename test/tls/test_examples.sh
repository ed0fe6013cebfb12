#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_examples.sh: the files in examples/tls/ are the ones the README shows,
# and each is usable as shown.
#   - openssl-pq.cnf loads the provider (openssl list -providers: mlkem
#     active) and sets X25519MLKEM768 first (the TLS tests negotiate with it);
#   - curl.sh is valid sh and uses --curves X25519MLKEM768;
#   - nginx.conf has the ssl_ecdh_curve line (nginx -t runs it in
#     test_nginx_curl.sh);
#   - apache2.conf has its SSLOpenSSLConfCmd Groups line, haproxy.cfg its
#     ssl-provider and ssl-default-bind-curves lines, stunnel.conf its
#     curves line (test_apache2.sh, test_haproxy.sh, test_stunnel.sh run
#     them);
#   - README.md or a page in docs/ shows each file verbatim (README.md:
#     openssl-pq.cnf; docs/tls.md: the others).
source "$(dirname "$0")/lib.sh"
need_provider

out=$(OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" \
    timeout 20 "$O30" list -providers 2>&1)
if grep -A3 '^  mlkem' <<<"$out" | grep -q 'status: active' &&
    grep -A3 '^  default' <<<"$out" | grep -q 'status: active'; then
    ok "openssl-pq.cnf: default and mlkem providers active"
else
    fail "openssl-pq.cnf does not activate both providers: $out"
fi
grep -q '^Groups = X25519MLKEM768:' "$EXAMPLES/openssl-pq.cnf" &&
    ok "openssl-pq.cnf: X25519MLKEM768 first" || fail "openssl-pq.cnf: Groups line"
grep -q '^module   = mlkem\.so$' "$EXAMPLES/openssl-pq.cnf" &&
    ok "openssl-pq.cnf: module = mlkem.so (with .so)" || fail "openssl-pq.cnf: module line"
sh -n "$EXAMPLES/curl.sh" && grep -q -- '--curves X25519MLKEM768' "$EXAMPLES/curl.sh" &&
    ok "curl.sh: valid sh, --curves X25519MLKEM768" || fail "curl.sh"
grep -q '^ssl_ecdh_curve X25519MLKEM768:' "$EXAMPLES/nginx.conf" &&
    ok "nginx.conf: ssl_ecdh_curve X25519MLKEM768 first" || fail "nginx.conf"
grep -q '^SSLOpenSSLConfCmd Groups X25519MLKEM768:' "$EXAMPLES/apache2.conf" &&
    ok "apache2.conf: SSLOpenSSLConfCmd Groups X25519MLKEM768 first" || fail "apache2.conf"
grep -q '^    ssl-provider mlkem$' "$EXAMPLES/haproxy.cfg" &&
    grep -q '^    ssl-default-bind-curves X25519MLKEM768:' "$EXAMPLES/haproxy.cfg" &&
    ok "haproxy.cfg: ssl-provider mlkem, ssl-default-bind-curves X25519MLKEM768 first" ||
    fail "haproxy.cfg"
grep -q '^curves = X25519MLKEM768:' "$EXAMPLES/stunnel.conf" &&
    ok "stunnel.conf: curves = X25519MLKEM768 first" || fail "stunnel.conf"

# The pages that show the recipes: README.md and docs/*.md.
shown_in() { # shown_in FILE: the README.md or docs/ page holding it verbatim
    local content page
    content=$(cat "$EXAMPLES/$1")
    for page in "$MLKEM_SOURCE_DIR/README.md" "$MLKEM_SOURCE_DIR"/docs/*.md; do
        [ -f "$page" ] || continue
        if [[ "$(cat "$page")" == *"$content"* ]]; then
            echo "${page#"$MLKEM_SOURCE_DIR"/}"
            return 0
        fi
    done
    return 1
}
for f in openssl-pq.cnf nginx.conf apache2.conf haproxy.cfg stunnel.conf curl.sh; do
    if page=$(shown_in "$f"); then
        ok "$page shows examples/tls/$f verbatim"
    else
        fail "no page in README.md or docs/ shows examples/tls/$f verbatim (copy it there)"
    fi
done
finish
