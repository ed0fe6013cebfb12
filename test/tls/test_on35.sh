#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_on35.sh: the provider loaded into OpenSSL 3.5, whose default provider
# already has the same six groups. capabilities.c then announces no group
# (libssl keeps its built-in ones); nothing may break:
#   1. test_capabilities under the 3.5 libraries: no TLS-GROUP from us, all
#      six names still accepted by libssl;
#   2. test_tls_inproc under 3.5: every group, with the default property
#      query and with "?provider=mlkem" (libssl then fetches our keymgmt and
#      KEM for the built-in groups); test_hybrid_kem under 3.5: our four
#      hybrids (X448MLKEM1024 included) against the default provider's, a
#      key pair of either and the other's encapsulation;
#   3. 3.5 s_client with our provider loaded (plain, and preferring ours)
#      against a plain 3.5 s_server, and the reverse, every group:
#      "Negotiated TLS1.3 group: <g>";
#   4. examples/tls/openssl-pq.cnf on 3.5, both ends, no flags:
#      X25519MLKEM768.
# With MLKEM_PEER=4.0 (the tls_on40 test) the same runs on OpenSSL 4.0,
# with MLKEM_TLS_CAPS / MLKEM_TLS_INPROC built against its libssl.so.4.
source "$(dirname "$0")/lib.sh"
need_provider
need_openssl35
make_cert
O35BIN=(env LD_LIBRARY_PATH="$O35_PREFIX/lib" "$O35W")

# ---- 1, 2: the C tests on the 3.5 libraries ---------------------------------
run35() { # label, command...
    local label=$1 out
    shift
    if out=$(LD_LIBRARY_PATH="$O35_PREFIX/lib" timeout -k 2 120 "$@" 2>&1) &&
        grep -q "runtime OpenSSL ${PEER//./\\.}\\." <<<"$out"; then
        ok "$label"
    else
        fail "$label"
        echo "$out" | tail -15 >&2
    fi
}
run35 "$PEER: no TLS-GROUP announced, six names known" \
    "$MLKEM_TLS_CAPS" "$MLKEM_PROVIDER_DIR"
run35 "$PEER: in-process handshakes, every group (built-in fetch)" \
    "$MLKEM_TLS_INPROC" "$MLKEM_PROVIDER_DIR"
run35 "$PEER: in-process handshakes, every group (?provider=mlkem)" \
    "$MLKEM_TLS_INPROC" "$MLKEM_PROVIDER_DIR" prefer-ours
# test_hybrid_kem is built against 3.0's libcrypto.so.3, which 3.5 can
# replace under it but 4.0 (libcrypto.so.4) cannot: on 4.0 the same crossing
# is tls_hybrid_cross40 (test_hybrid_cross built against 4.0).
if [ "$PEER" = 4.0 ]; then
    echo "4.0: the hybrid KEMs are crossed with 4.0's own by tls_hybrid_cross40"
elif [ -n "${MLKEM_TLS_HYBRID:-}" ]; then
    run35 "3.5: hybrid KEMs against 3.5's own, both ways (X448MLKEM1024 too)" \
        "$MLKEM_TLS_HYBRID" "$MLKEM_PROVIDER_DIR"
    out=$(LD_LIBRARY_PATH="$O35_PREFIX/lib" timeout -k 2 120 "$MLKEM_TLS_HYBRID" \
        "$MLKEM_PROVIDER_DIR" 2>&1 || true)
    [ "$(grep -c 'provider=default encapsulation$\|provider=mlkem encapsulation$' <<<"$out")" = 8 ] \
        && ok "3.5: 4 hybrids x 2 directions crossed with the built-in KEMs" \
        || fail "3.5: the hybrid cross-checks did not all run"
else
    fail "MLKEM_TLS_HYBRID not set (test/tls/CMakeLists.txt)"
fi

# ---- 3. 3.5 command line with and without our provider ----------------------
# args: label, group, server extra args (array name), client extra args
pair35() {
    local label=$1 g=$2 sname=$3 cname=$4
    local -n sargs=$sname cargs=$cname
    if ! start_server "$label-$g" "${O35BIN[@]}" s_server ${sargs[@]+"${sargs[@]}"} \
        -accept 127.0.0.1:0 -naccept 1 -cert "$CERT" -key "$KEY" -tls1_3 -groups "$g" -www; then
        fail "$label $g: server"
        return
    fi
    http_client "$TLS_TMP/$label-$g.cli" "${O35BIN[@]}" s_client ${cargs[@]+"${cargs[@]}"} \
        -connect "127.0.0.1:$SERVER_PORT" -tls1_3 -groups "$g" -ign_eof
    wait_server "$SERVER_PID"
    if got_page "$TLS_TMP/$label-$g.cli" &&
        grep -q "^Negotiated TLS1.3 group: $g\$" "$TLS_TMP/$label-$g.cli"; then
        ok "$PEER $label: $g"
    else
        fail "$PEER $label: $g: $(grep -E 'Negotiated|error' "$TLS_TMP/$label-$g.cli" | head -3)"
    fi
}
# shellcheck disable=SC2034 # used through pair35's namerefs
NONE=()
# shellcheck disable=SC2034
OURS=("${PROV[@]}")
# shellcheck disable=SC2034
OURS_PREF=("${PROV[@]}" -propquery '?provider=mlkem')
for g in "${GROUPS6[@]}"; do
    pair35 "client+mlkem -> plain server" "$g" NONE OURS
    pair35 "client preferring mlkem -> plain server" "$g" NONE OURS_PREF
    pair35 "plain client -> server preferring mlkem" "$g" OURS_PREF NONE
done

# ---- 4. the example file on 3.5 ---------------------------------------------
if start_server cnf35 env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
    OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "${O35BIN[@]}" s_server -accept 127.0.0.1:0 \
    -naccept 1 -cert "$CERT" -key "$KEY" -www; then
    http_client "$TLS_TMP/cnf35.cli" env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
        OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "${O35BIN[@]}" s_client \
        -connect "127.0.0.1:$SERVER_PORT" -ign_eof
    wait_server "$SERVER_PID"
    if got_page "$TLS_TMP/cnf35.cli" &&
        grep -q '^Negotiated TLS1.3 group: X25519MLKEM768$' "$TLS_TMP/cnf35.cli"; then
        ok "$PEER with openssl-pq.cnf on both ends: X25519MLKEM768"
    else
        fail "$PEER with openssl-pq.cnf: $(grep -E 'Negotiated|error' "$TLS_TMP/cnf35.cli" | head -3)"
    fi
else
    fail "$PEER openssl-pq.cnf server did not start"
fi

finish
