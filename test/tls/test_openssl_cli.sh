#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_openssl_cli.sh: Debian's `openssl` 3.0 command line with the mlkem
# provider, on both ends, over loopback.
#
#  1. every group: s_server and s_client each restricted to that one group
#     (-groups), HTTP page fetched, and the group proven from both ends'
#     -trace output (the ServerHello key_share NamedGroup codepoint; 3.0's
#     s_client prints no "Server Temp Key" for KEM groups, and a config
#     Groups line with an unknown name would be dropped silently);
#  2. examples/tls/openssl-pq.cnf, as the whole configuration (OPENSSL_CONF)
#     and appended with ".include" to a copy of Debian's /etc/ssl/openssl.cnf
#     and to a RHEL 9-shaped openssl.cnf: X25519MLKEM768 with no flags;
#     without the provider the same file falls back to x25519 (the 3.0
#     pitfall the README warns about);
#  3. malformed key shares sent to a running s_server (test_tls_badshare
#     --connect): each gets the expected alert, and the server goes on
#     serving a normal client.
source "$(dirname "$0")/lib.sh"
need_provider
make_cert

# ---- 1. every group, both ends 3.0 + provider -------------------------------
for g in "${GROUPS6[@]}"; do
    id=$(group_id "$g")
    start_server "srv-$g" "$O30" s_server "${PROV[@]}" -accept 127.0.0.1:0 -naccept 1 \
        -cert "$CERT" -key "$KEY" -tls1_3 -groups "$g" -www -trace || { fail "$g: server"; continue; }
    http_client "$TLS_TMP/cli-$g.out" "$O30" s_client "${PROV[@]}" -connect "127.0.0.1:$SERVER_PORT" \
        -tls1_3 -groups "$g" -trace -ign_eof
    wait_server "$SERVER_PID"
    cg=$(trace_group "$TLS_TMP/cli-$g.out")
    sg=$(trace_group "$TLS_TMP/srv-$g.out")
    if ! got_page "$TLS_TMP/cli-$g.out"; then
        fail "$g: no page"; tail -5 "$TLS_TMP/cli-$g.out" >&2
    elif [ "$cg" != "$id" ] || [ "$sg" != "$id" ]; then
        fail "$g: ServerHello group client=$cg server=$sg, want $id"
    else
        ok "3.0 <-> 3.0, $g: ServerHello group $id on both ends, page fetched"
    fi
done

# ---- 2. the example configuration -------------------------------------------
# mlkem.so is found through OPENSSL_MODULES, as it would be in the system
# modules directory.
cnf_case() { # label, client cnf, server cnf, modules dir, expected codepoint
    local label=$1 ccnf=$2 scnf=$3 mods=$4 want=$5 out cg sg
    out=$TLS_TMP/cnf-$label
    start_server "cnf-$label" env OPENSSL_CONF="$scnf" OPENSSL_MODULES="$mods" \
        "$O30" s_server -accept 127.0.0.1:0 -naccept 1 -cert "$CERT" -key "$KEY" -www -trace ||
        { fail "$label: server"; return; }
    http_client "$out.cli" env OPENSSL_CONF="$ccnf" OPENSSL_MODULES="$mods" \
        "$O30" s_client -connect "127.0.0.1:$SERVER_PORT" -trace -ign_eof
    wait_server "$SERVER_PID"
    cg=$(trace_group "$out.cli")
    sg=$(trace_group "$TLS_TMP/cnf-$label.out")
    if got_page "$out.cli" && [ "$cg" = "$want" ] && [ "$sg" = "$want" ]; then
        ok "openssl-pq.cnf ($label): ServerHello group $want, no command-line flags"
    else
        fail "$label: group client=$cg server=$sg, want $want"
        tail -5 "$out.cli" >&2
    fi
}
cnf_case standalone "$EXAMPLES/openssl-pq.cnf" "$EXAMPLES/openssl-pq.cnf" \
    "$MLKEM_PROVIDER_DIR" 4588

# Debian 12, system-wide: the one line the file's comment says to append.
cp /etc/ssl/openssl.cnf "$TLS_TMP/debian.cnf" 2>/dev/null ||
    printf 'openssl_conf = openssl_init\n[openssl_init]\n' >"$TLS_TMP/debian.cnf"
printf '\n.include %s\n' "$EXAMPLES/openssl-pq.cnf" >>"$TLS_TMP/debian.cnf"
cnf_case debian-include "$TLS_TMP/debian.cnf" "$TLS_TMP/debian.cnf" "$MLKEM_PROVIDER_DIR" 4588

# RHEL 9 shape (section names as in /etc/pki/tls/openssl.cnf, with a
# crypto-policies Groups line that the included file must override).
cat >"$TLS_TMP/rhel.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
ssl_conf = ssl_module
[provider_sect]
default = default_sect
[default_sect]
activate = 1
[ssl_module]
system_default = crypto_policy
[crypto_policy]
CipherString = @SECLEVEL=2:kEECDH:kRSA:kEDH:kPSK:kDHEPSK:kECDHEPSK:-aDSS:-3DES:!DES:!RC4:!RC2:!IDEA:-SEED:!eNULL:!aNULL:!MD5:-SHA384:-CAMELLIA:-ARIA:-AESCCM8
MinProtocol = TLSv1.2
Groups = X25519:secp256r1:X448:secp521r1:secp384r1:ffdhe2048:ffdhe3072:ffdhe4096:ffdhe6144:ffdhe8192
.include $EXAMPLES/openssl-pq.cnf
EOF
cnf_case rhel-include "$TLS_TMP/rhel.cnf" "$TLS_TMP/rhel.cnf" "$MLKEM_PROVIDER_DIR" 4588

# Provider absent: OpenSSL 3.0 drops the whole Groups line without a word.
mkdir -p "$TLS_TMP/empty"
cnf_case no-provider "$EXAMPLES/openssl-pq.cnf" "$EXAMPLES/openssl-pq.cnf" "$TLS_TMP/empty" 29

# ---- 3. malformed key shares against a running s_server ---------------------
SERVER_GROUPS=X25519MLKEM768:SecP256r1MLKEM768:SecP384r1MLKEM1024:MLKEM512:MLKEM768:MLKEM1024
if start_server bad "$O30" s_server "${PROV[@]}" -accept 127.0.0.1:0 -naccept 100 \
    -cert "$CERT" -key "$KEY" -tls1_3 -groups "$SERVER_GROUPS" -www; then
    for g in X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024 MLKEM768; do
        for kind in short long ek point group; do
            [ "$kind" = point ] && [ "$g" = MLKEM768 ] && continue
            want=47
            [ "$kind" = group ] && want=40
            if out=$("$MLKEM_TLS_BADSHARE" "$MLKEM_PROVIDER_DIR" --connect "$SERVER_PORT" \
                "$g" "$kind" "$want" 2>&1); then
                ok "s_server: $g $kind share -> alert $want"
            else
                fail "s_server: $g $kind share: $out"
            fi
        done
    done
    http_client "$TLS_TMP/after.out" "$O30" s_client "${PROV[@]}" \
        -connect "127.0.0.1:$SERVER_PORT" -tls1_3 -groups X25519MLKEM768 -trace -ign_eof
    if got_page "$TLS_TMP/after.out" && [ "$(trace_group "$TLS_TMP/after.out")" = 4588 ]; then
        ok "s_server still serves X25519MLKEM768 after 19 malformed ClientHellos"
    else
        fail "s_server did not serve a normal client after the malformed ones"
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || fail "s_server died"
    stop_server "$SERVER_PID"
else
    fail "malformed-share server did not start"
fi

finish
