#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_check.sh: mlkem-check (tools/mlkem_check.c) against real servers on
# 127.0.0.1: OpenSSL 3.5's own s_server (built-in groups, no provider) and
# OpenSSL 3.0's s_server with the provider.
#
#  - every hybrid group a 3.5 server alone accepts is printed by name with
#    its codepoint (X25519MLKEM768 = 4588 = 0x11ec), exit status 0;
#  - the ClientHello trap: the client offers X25519MLKEM768 (its key share)
#    and x25519, the server accepts x25519 only: `s_client -trace | grep -A1
#    key_share` shows 4588 (the ClientHello's share), mlkem-check says
#    x25519, classical, exit status 1;
#  - with examples/tls/openssl-pq.cnf and no option it offers the
#    configuration's groups: X25519MLKEM768 (-q prints the name alone);
#  - run on OpenSSL 3.5's libcrypto without the provider, against 3.0 + the
#    provider serving SecP384r1MLKEM1024: the name still comes out;
#  - no handshake (closed port, a hybrid-only server and a client without
#    the provider, an unknown group name) is exit status 2.
source "${MLKEM_SOURCE_DIR:?}/test/tls/lib.sh"
need_provider
need_openssl35
CHECK=${MLKEM_BINARY_DIR:?}/tools/mlkem-check
[ -x "$CHECK" ] || { echo "FAIL: $CHECK not built" >&2; exit 1; }
make_cert
WITH_PROV=(-provider-path "$MLKEM_PROVIDER_DIR" -provider mlkem)

s35() { # s35 NAME GROUPS: an OpenSSL 3.5 s_server accepting GROUPS only
    start_server "$1" env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
        "$O35_PREFIX/bin/openssl" \
        s_server -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" -groups "$2" -tls1_3 -www ||
        { echo "FAIL: s_server $1 did not start" >&2; exit 1; }
}
# run_check OUT CMD...: status in $rc
run_check() { local out=$1; shift; timeout 30 "$@" >"$out" 2>&1; rc=$?; }

# 1. Each hybrid, from a server that accepts nothing else.
for g in X25519MLKEM768:4588:0x11ec SecP256r1MLKEM768:4587:0x11eb \
         SecP384r1MLKEM1024:4589:0x11ed MLKEM768:513:0x0201; do
    IFS=: read -r name id hex <<<"$g"
    s35 "s-$name" "$name"
    run_check "$TLS_TMP/c-$name.out" "$CHECK" "${WITH_PROV[@]}" -groups "$name" \
        "localhost:$SERVER_PORT"
    if [ "$rc" = 0 ] && grep -qx "group:    $name ($id, $hex)" "$TLS_TMP/c-$name.out" &&
        grep -q '^kind:     post-quantum' "$TLS_TMP/c-$name.out"; then
        ok "$name: 'group:    $name ($id, $hex)', post-quantum, exit 0"
    else
        fail "$name: exit $rc: $(cat "$TLS_TMP/c-$name.out")"
    fi
    stop_server "$SERVER_PID"
done

# 2. The ClientHello trap.
s35 s-x25519 x25519
$O30 s_client "${PROV[@]}" -groups X25519MLKEM768:x25519 -connect "127.0.0.1:$SERVER_PORT" \
    -trace </dev/null >"$TLS_TMP/trap.trace" 2>&1
old=$(grep -A1 key_share "$TLS_TMP/trap.trace" | grep -m1 NamedGroup | grep -o '([0-9]*)')
run_check "$TLS_TMP/trap.out" "$CHECK" "${WITH_PROV[@]}" -groups X25519MLKEM768:x25519 \
    "127.0.0.1:$SERVER_PORT"
if [ "$old" = "(4588)" ] && [ "$rc" = 1 ] && grep -qx 'group:    x25519 (29, 0x001d)' "$TLS_TMP/trap.out" &&
    grep -q '^kind:     classical' "$TLS_TMP/trap.out"; then
    ok "server took x25519: grep -A1 key_share says $old (the ClientHello), mlkem-check says x25519, exit 1"
else
    fail "ClientHello trap: old grep '$old', exit $rc: $(cat "$TLS_TMP/trap.out")"
fi

# 3. The configuration's groups (openssl-pq.cnf), quiet.
run_check "$TLS_TMP/cnf-x.out" env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
    OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "$CHECK" -q "localhost:$SERVER_PORT"
[ "$rc" = 1 ] && [ "$(cat "$TLS_TMP/cnf-x.out")" = x25519 ] &&
    ok "openssl-pq.cnf, x25519-only server: -q prints 'x25519', exit 1" ||
    fail "openssl-pq.cnf vs x25519 server: exit $rc: $(cat "$TLS_TMP/cnf-x.out")"
stop_server "$SERVER_PID"
s35 s-hybrid X25519MLKEM768
run_check "$TLS_TMP/cnf.out" env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
    OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "$CHECK" -q "localhost:$SERVER_PORT"
[ "$rc" = 0 ] && [ "$(cat "$TLS_TMP/cnf.out")" = X25519MLKEM768 ] &&
    ok "openssl-pq.cnf, no option: -q prints 'X25519MLKEM768', exit 0" ||
    fail "openssl-pq.cnf: exit $rc: $(cat "$TLS_TMP/cnf.out")"

# 5a. A hybrid-only server and a client without the provider.
run_check "$TLS_TMP/noprov.out" env -u OPENSSL_CONF "$CHECK" "localhost:$SERVER_PORT"
[ "$rc" = 2 ] && grep -q 'no TLS 1.3 handshake' "$TLS_TMP/noprov.out" &&
    ok "client without the provider vs X25519MLKEM768-only server: exit 2" ||
    fail "no provider: exit $rc: $(cat "$TLS_TMP/noprov.out")"
# 5b. An unknown group name.
run_check "$TLS_TMP/unknown.out" env -u OPENSSL_CONF "$CHECK" -groups X25519MLKEM768 \
    "localhost:$SERVER_PORT"
[ "$rc" = 2 ] && grep -q 'is the mlkem provider loaded' "$TLS_TMP/unknown.out" &&
    ok "-groups X25519MLKEM768 without the provider: exit 2, says why" ||
    fail "unknown group: exit $rc: $(cat "$TLS_TMP/unknown.out")"
stop_server "$SERVER_PID"
# 5c. A closed port (the server just stopped).
run_check "$TLS_TMP/closed.out" "$CHECK" "127.0.0.1:$SERVER_PORT"
[ "$rc" = 2 ] && grep -q 'cannot connect' "$TLS_TMP/closed.out" &&
    ok "closed port: exit 2 ($(cat "$TLS_TMP/closed.out"))" ||
    fail "closed port: exit $rc: $(cat "$TLS_TMP/closed.out")"

# 4. On OpenSSL 3.5's libcrypto, against 3.0 + the provider.
start_server s30 "$O30" s_server "${PROV[@]}" -accept 127.0.0.1:0 -cert "$CERT" -key "$KEY" \
    -groups SecP384r1MLKEM1024 -tls1_3 -www ||
    { echo "FAIL: OpenSSL 3.0 s_server did not start" >&2; exit 1; }
run_check "$TLS_TMP/on35.out" env LD_LIBRARY_PATH="$O35_PREFIX/lib" "$CHECK" \
    -groups SecP384r1MLKEM1024 "127.0.0.1:$SERVER_PORT"
[ "$rc" = 0 ] && grep -qx 'group:    SecP384r1MLKEM1024 (4589, 0x11ed)' "$TLS_TMP/on35.out" &&
    ok "on OpenSSL 3.5 (built-in groups) vs 3.0 + mlkem: SecP384r1MLKEM1024, exit 0" ||
    fail "on 3.5: exit $rc: $(cat "$TLS_TMP/on35.out")"
stop_server "$SERVER_PID"
finish
