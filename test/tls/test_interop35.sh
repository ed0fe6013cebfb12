#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_interop35.sh: OpenSSL 3.0 + the mlkem provider against an
# independent implementation, OpenSSL 3.5's built-in ML-KEM and hybrids
# (default provider only, nothing of ours loaded on the 3.5 side).
#
# For each of the six groups, both directions:
#   a. 3.5 s_server -groups <g> only  <-  3.0 + provider s_client -groups <g>
#      proof: the 3.5 server accepts nothing else, the page comes back, the
#      3.5 server's -trace names <g> in its ServerHello key_share, and the
#      client's -trace reads the same codepoint;
#   b. 3.0 + provider s_server -groups <g>  <-  3.5 s_client -groups <g>
#      proof: 3.5 prints "Negotiated TLS1.3 group: <g>", the page comes
#      back, and the server's -trace shows <g>'s codepoint.
# Then with no group flags at all: 3.5's default list (X25519MLKEM768 first)
# against 3.0 configured by examples/tls/openssl-pq.cnf, both directions.
# A completed handshake needs identical shared secrets on both sides, so
# this is the byte-exactness check of the wire formats.
# With MLKEM_PEER=4.0 (the tls_interop40 test) the peer is OpenSSL 4.0.
source "$(dirname "$0")/lib.sh"
need_provider
need_openssl35
make_cert
O35BIN=(env LD_LIBRARY_PATH="$O35_PREFIX/lib" "$O35W")

for g in "${GROUPS6[@]}"; do
    id=$(group_id "$g")
    # a. 3.5 server, 3.0 + provider client
    if start_server "a-$g" "${O35BIN[@]}" s_server -accept 127.0.0.1:0 -naccept 1 \
        -cert "$CERT" -key "$KEY" -tls1_3 -groups "$g" -www -trace; then
        http_client "$TLS_TMP/a-$g.cli" "$O30" s_client "${PROV[@]}" \
            -connect "127.0.0.1:$SERVER_PORT" -tls1_3 -groups "$g" -trace -ign_eof
        wait_server "$SERVER_PID"
        cg=$(trace_group "$TLS_TMP/a-$g.cli")
        # 3.5 knows the group: its own trace names it.
        sname=$(awk '/ServerHello, Length=/ { sh = 1 }
            sh && /NamedGroup:/ { print $2, $3; exit }' "$TLS_TMP/a-$g.out")
        if got_page "$TLS_TMP/a-$g.cli" && [ "$cg" = "$id" ] && [ "$sname" = "$g ($id)" ]; then
            ok "$PEER server <- 3.0+mlkem client: $g ($PEER trace: ServerHello NamedGroup $sname)"
        else
            fail "$PEER server <- 3.0+mlkem client: $g: client saw $cg, $PEER sent '$sname', want $g ($id)"
            grep -i -E 'error|alert' "$TLS_TMP/a-$g.cli" | head -5 >&2
        fi
    else
        fail "$g: $PEER server did not start"
    fi

    # b. 3.0 + provider server, 3.5 client
    if start_server "b-$g" "$O30" s_server "${PROV[@]}" -accept 127.0.0.1:0 -naccept 1 \
        -cert "$CERT" -key "$KEY" -tls1_3 -groups "$g" -www -trace; then
        http_client "$TLS_TMP/b-$g.cli" "${O35BIN[@]}" s_client \
            -connect "127.0.0.1:$SERVER_PORT" -tls1_3 -groups "$g" -ign_eof
        wait_server "$SERVER_PID"
        sg=$(trace_group "$TLS_TMP/b-$g.out")
        if got_page "$TLS_TMP/b-$g.cli" &&
            grep -q "^Negotiated TLS1.3 group: $g\$" "$TLS_TMP/b-$g.cli" && [ "$sg" = "$id" ]; then
            ok "3.0+mlkem server <- $PEER client: $g ($PEER says \"Negotiated TLS1.3 group: $g\")"
        else
            fail "3.0+mlkem server <- $PEER client: $g: server group $sg," \
                "$PEER: $(grep 'Negotiated TLS1.3 group' "$TLS_TMP/b-$g.cli")"
            grep -i -E 'error|alert' "$TLS_TMP/b-$g.cli" | head -5 >&2
        fi
    else
        fail "$g: 3.0 server did not start"
    fi
done

# No flags: 3.5 defaults vs 3.0 configured by the example file.
if start_server c-srv env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
    OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "$O30" s_server -accept 127.0.0.1:0 -naccept 1 \
    -cert "$CERT" -key "$KEY" -www -trace; then
    http_client "$TLS_TMP/c.cli" "${O35BIN[@]}" s_client -connect "127.0.0.1:$SERVER_PORT" -ign_eof
    wait_server "$SERVER_PID"
    if got_page "$TLS_TMP/c.cli" &&
        grep -q '^Negotiated TLS1.3 group: X25519MLKEM768$' "$TLS_TMP/c.cli"; then
        ok "defaults: $PEER client -> 3.0 server with openssl-pq.cnf: X25519MLKEM768"
    else
        fail "defaults, $PEER client: $(grep 'Negotiated' "$TLS_TMP/c.cli")"
    fi
else
    fail "openssl-pq.cnf server did not start"
fi
if start_server d-srv "${O35BIN[@]}" s_server -accept 127.0.0.1:0 -naccept 1 \
    -cert "$CERT" -key "$KEY" -www; then
    http_client "$TLS_TMP/d.cli" env OPENSSL_CONF="$EXAMPLES/openssl-pq.cnf" \
        OPENSSL_MODULES="$MLKEM_PROVIDER_DIR" "$O30" s_client \
        -connect "127.0.0.1:$SERVER_PORT" -trace -ign_eof
    wait_server "$SERVER_PID"
    cg=$(trace_group "$TLS_TMP/d.cli")
    if got_page "$TLS_TMP/d.cli" && [ "$cg" = 4588 ]; then
        ok "defaults: 3.0 client with openssl-pq.cnf -> $PEER server: X25519MLKEM768"
    else
        fail "defaults, 3.0 client: group $cg, want 4588"
    fi
else
    fail "$PEER default server did not start"
fi

finish
