#!/usr/bin/env bash
# test_examples.sh: the files in examples/tls/ are the ones the README shows,
# and each is usable as shown.
#   - openssl-pq.cnf loads the provider (openssl list -providers: mlkem
#     active) and sets X25519MLKEM768 first (the TLS tests negotiate with it);
#   - curl.sh is valid sh and uses --curves X25519MLKEM768;
#   - nginx.conf has the ssl_ecdh_curve line (nginx -t runs it in
#     test_nginx_curl.sh);
#   - README.md contains each file verbatim. Until the README has a TLS
#     section the test reports a skip, naming the missing files; once one
#     is shown, every file must match exactly.
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

README=$MLKEM_SOURCE_DIR/README.md
readme=$(cat "$README" 2>/dev/null || true)
shown=0
missing=()
for f in openssl-pq.cnf nginx.conf curl.sh; do
    content=$(cat "$EXAMPLES/$f")
    if [[ "$readme" == *"$content"* ]]; then
        shown=$((shown + 1))
        ok "README.md shows examples/tls/$f verbatim"
    else
        missing+=("$f")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$shown" -eq 0 ] && ! grep -q 'examples/tls/' <<<"$readme"; then
        [ "$TLS_FAILS" -eq 0 ] || finish
        skip "README.md has no TLS example section yet (examples/tls/${missing[*]})"
    fi
    fail "README.md does not show verbatim: ${missing[*]} (copy them from examples/tls/)"
fi
finish
