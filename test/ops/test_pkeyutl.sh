#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_pkeyutl.sh: mlkem-pkeyutl (tools/mlkem_pkeyutl.c) on the system's
# OpenSSL 3.0 against OpenSSL 3.5's own `openssl pkeyutl`, each run with
# the SAME arguments (3.5's command line, `openssl pkeyutl` replaced):
#  - ML-KEM-512/768/1024 in both directions: keys made by either side
#    (3.5's built-in genpkey, or 3.0 + the provider), encapsulated by one
#    program and decapsulated by the other; the secrets compared, and their
#    mode (0600, as 3.5 writes them);
#  - plain 3.5 command lines: no -provider (mlkem-pkeyutl brings the
#    provider in on 3.0), -pubin, -keyform DER, -passin, -out/-secret to
#    stdout, -config, -provider/-provider-path/-propquery, -kemop,
#    -pkeyopt hexikme:... (deterministic: ciphertext and secret identical
#    byte for byte on both sides), -hexdump;
#  - the hybrids: 3.5's pkeyutl reads keys from files only, and no
#    hybrid (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024,
#    X448MLKEM1024) has a key file format (no OID): 3.5's genpkey cannot
#    write one, so neither pkeyutl can take one; checked, so that this
#    test says so if 3.5 ever changes;
#  - the errors, by exact text: 3.5's stderr with "pkeyutl:" named
#    "mlkem-pkeyutl:", without OpenSSL's error-queue lines (those carry
#    source file names and, for ML-KEM, the provider's own reasons): wrong
#    key type, wrong ciphertext length, missing and unreadable files, an
#    encrypted key without a pass phrase (no terminal) or with a wrong one,
#    -encap without -secret, -decap with -out and -secret, an unknown
#    option, no -inkey, a bad -passin.
set -u
BIN=${MLKEM_BINARY_DIR:?}/tools/mlkem-pkeyutl
PROV_DIR=${MLKEM_PROVIDER_DIR:?}
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
O35=$(peer_prefix 3.5)
[ -x "$BIN" ] || { echo "FAIL: $BIN not built" >&2; exit 1; }
[ -n "$O35" ] || skip "no OpenSSL 3.5 peer (scripts/openssl-peer.sh 3.5)"
# A directory others can enter (the unreadable-file case runs as nobody).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-pkeyutl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cd "$tmp" || exit 1

# The two programs, with no configuration of the machine's: 3.5 uses its
# built-in ML-KEM; mlkem-pkeyutl finds mlkem.so through OPENSSL_MODULES.
# Scripts, not functions: setsid (no terminal) and setpriv run them.
printf '#!/bin/sh\nexec env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="%s/lib" "%s/bin/openssl" pkeyutl "$@"\n' \
    "$O35" "$O35" >p35
printf '#!/bin/sh\nexec env -u OPENSSL_CONF OPENSSL_MODULES="%s" "%s" "$@"\n' "$PROV_DIR" "$BIN" >ours
chmod 755 p35 ours
o35() { env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35/lib" "$O35/bin/openssl" "$@"; }
o30() { env -u OPENSSL_CONF OPENSSL_MODULES="$PROV_DIR" openssl "$1" -provider mlkem -provider default "${@:2}"; }
# run NAME PROG ARGS...: stdout, stderr in NAME.out / NAME.err, status in NAME.rc
run() { local n=$1; shift; timeout 30 setsid "$@" >"$n.out" 2>"$n.err" </dev/null; echo $? >"$n.rc"; }
# texts NAME: stderr without the error-queue lines, 3.5's name made ours
texts() { grep -Ev '^[0-9A-F]+:error:' "$1.err" | sed 's/^pkeyutl:/mlkem-pkeyutl:/'; }
# same_error LABEL ARGS...: both programs fail with the same texts
same_error() {
    local label=$1; shift
    run e35 ./p35 "$@"
    run eours ./ours "$@"
    if [ "$(cat e35.rc)" = 1 ] && [ "$(cat eours.rc)" = 1 ] && [ -s e35.err ] &&
        [ "$(texts e35)" = "$(texts eours)" ]; then
        ok "$label: exit 1, '$(texts eours | head -n 1)'$([ "$(texts eours | wc -l)" -gt 1 ] && echo ' ...')"
    else
        fail "$label: 3.5 exit $(cat e35.rc): $(cat e35.err)
        mlkem-pkeyutl exit $(cat eours.rc): $(cat eours.err)"
    fi
}
mode() { stat -c %a "$1"; }

# 1. Both directions, every parameter set, keys from either side.
for alg in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
    o35 genpkey -algorithm "$alg" -out "k35-$alg.pem" &&
        o35 pkey -in "k35-$alg.pem" -pubout -out "p35-$alg.pem" &&
        o30 genpkey -algorithm "$alg" -out "k30-$alg.pem" &&
        o30 pkey -in "k30-$alg.pem" -pubout -out "p30-$alg.pem" ||
        { fail "$alg: cannot make the keys"; continue; }
    for keys in 35 30; do
        for enc in p35 ours; do
            dec=$([ "$enc" = p35 ] && echo ours || echo p35)
            rm -f ct.bin ss1.bin ss2.bin
            "./$enc" -encap -inkey "p$keys-$alg.pem" -pubin -out ct.bin -secret ss1.bin 2>enc.err &&
                "./$dec" -decap -inkey "k$keys-$alg.pem" -in ct.bin -secret ss2.bin 2>dec.err
            rc=$?
            if [ "$rc" = 0 ] && [ "$(wc -c <ss1.bin)" = 32 ] && cmp -s ss1.bin ss2.bin &&
                [ "$(mode ss1.bin)$(mode ss2.bin)" = 600600 ]; then
                ok "$alg, keys by ${keys/30/3.0+mlkem}: $enc encapsulates ($(wc -c <ct.bin) bytes), $dec decapsulates, same 32-byte secret, mode 0600"
            else
                fail "$alg keys $keys, $enc -> $dec: exit $rc $(cat enc.err dec.err)"
            fi
        done
    done
done

# 2. 3.5's other forms, on ML-KEM-768 keys made by 3.5.
K=k35-ML-KEM-768.pem P=p35-ML-KEM-768.pem
o35 pkey -in "$K" -outform DER -out k.der && o35 pkey -in "$P" -pubin -outform DER -out p.der &&
    o35 pkey -in "$K" -aes256 -passout pass:secret -out enc.pem || fail "DER / encrypted keys"
# -encap reads a private key file too (its public half); secret to a file,
# ciphertext to stdout; -decap with no -secret writes the secret to -out.
./ours -encap -inkey "$K" -secret s1.bin >ct.bin && ./p35 -decap -inkey "$K" -in ct.bin -out s2.bin &&
    cmp -s s1.bin s2.bin && [ "$(mode s2.bin)" = 600 ] &&
    ok "-encap -inkey PRIVATE (ciphertext on stdout); 3.5 -decap -out (the secret, mode 0600)" ||
    fail "stdout / -out forms"
./p35 -encap -inkey p.der -keyform DER -out ct.bin -secret s1.bin &&
    ./ours -decap -inkey k.der -keyform DER -in ct.bin -secret s2.bin && cmp -s s1.bin s2.bin &&
    ok "-keyform DER, both sides" || fail "-keyform DER"
./ours -decap -inkey enc.pem -passin pass:secret -in ct.bin -secret s3.bin && cmp -s s1.bin s3.bin &&
    SECRET_PW=secret ./ours -decap -inkey enc.pem -passin env:SECRET_PW <ct.bin >s4.bin &&
    cmp -s s1.bin s4.bin && echo secret >pw.txt &&
    ./ours -decap -inkey enc.pem -passin file:pw.txt -in ct.bin -secret s5.bin && cmp -s s1.bin s5.bin &&
    ok "encrypted key: -passin pass:, env: (ciphertext on stdin, secret on stdout), file:" ||
    fail "-passin forms"
# Deterministic encapsulation: the same m gives the same bytes on both sides.
m=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
./p35 -encap -inkey "$P" -pkeyopt "hexikme:$m" -out c35.bin -secret s35.bin &&
    ./ours -encap -inkey "$P" -pkeyopt "hexikme:$m" -out cours.bin -secret sours.bin &&
    cmp -s c35.bin cours.bin && cmp -s s35.bin sours.bin &&
    ok "-pkeyopt hexikme:M: ciphertext and secret identical byte for byte" ||
    fail "-pkeyopt hexikme"
./p35 -encap -inkey "$P" -pkeyopt "hexikme:$m" -hexdump -secret s35.bin >h35.txt &&
    ./ours -encap -inkey "$P" -pkeyopt "hexikme:$m" -hexdump -secret sours.bin >hours.txt &&
    cmp -s h35.txt hours.txt && [ "$(wc -l <h35.txt)" = 68 ] &&
    ok "-hexdump: identical ($(wc -l <h35.txt) lines)" || fail "-hexdump: $(diff h35.txt hours.txt | head -n 4)"
# -config, -provider, -provider-path, -propquery: 3.5 then uses our module too.
cat >prov.cnf <<EOF
openssl_conf = init
[init]
providers = provs
[provs]
default = dflt
mlkem = mlk
[dflt]
activate = 1
[mlk]
module = $PROV_DIR/mlkem.so
activate = 1
EOF
run c35 ./p35 -config prov.cnf -encap -inkey "$P" -out ct.bin -secret s1.bin
run cours ./ours -config prov.cnf -decap -inkey "$K" -in ct.bin -secret s2.bin
[ "$(cat c35.rc)$(cat cours.rc)" = 00 ] && cmp -s s1.bin s2.bin &&
    [ "$(cat c35.err)" = "Using configuration from prov.cnf" ] && [ "$(cat c35.err)" = "$(cat cours.err)" ] &&
    ok "-config FILE: '$(cat cours.err)', both" || fail "-config: $(cat c35.err cours.err)"
PQ=(-provider-path "$PROV_DIR" -provider mlkem -provider default -propquery '?provider=mlkem')
./p35 "${PQ[@]}" -encap -inkey "$P" -out ct.bin -secret s1.bin &&
    MLKEM_TRACE=1 ./ours "${PQ[@]}" -decap -inkey "$K" -in ct.bin -secret s2.bin 2>trace.err &&
    cmp -s s1.bin s2.bin && grep -q '^mlkem: decode ML-KEM-768' trace.err &&
    ok "-provider-path, -provider, -propquery ?provider=mlkem: our decoder read the key" ||
    fail "-provider options: $(cat trace.err)"
# Before cmake --install: -provider-path alone is where mlkem is found.
env -u OPENSSL_MODULES -u OPENSSL_CONF "$BIN" -provider-path "$PROV_DIR" -decap -inkey "$K" \
    -in ct.bin -secret s3.bin 2>pp.err && cmp -s s1.bin s3.bin &&
    ok "-provider-path DIR alone (no OPENSSL_MODULES): mlkem loaded from DIR" ||
    fail "-provider-path alone: $(cat pp.err)"
run k35 ./p35 -encap -kemop DHKEM -inkey "$P" -out ct.bin -secret s1.bin
run kours ./ours -encap -kemop DHKEM -inkey "$P" -out ct.bin -secret s1.bin
[ "$(cat k35.rc)" = "$(cat kours.rc)" ] && [ "$(texts k35)" = "$(texts kours)" ] &&
    ok "-kemop DHKEM on an ML-KEM key: exit $(cat kours.rc) on both" ||
    fail "-kemop: 3.5 $(cat k35.rc) $(cat k35.err); ours $(cat kours.rc) $(cat kours.err)"

# 3. The hybrids: no key files, on 3.5 as here.
for h in X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024 X448MLKEM1024; do
    if o35 genpkey -algorithm "$h" -out "h-$h.pem" 2>/dev/null && [ -s "h-$h.pem" ]; then
        fail "$h: OpenSSL 3.5 now writes a key file: test pkeyutl with it"
    else
        ok "$h: 3.5's genpkey writes no key file (a hybrid has no OID), so no pkeyutl takes one"
    fi
done

# 4. Errors, by text.
o35 genpkey -algorithm ED25519 -out ed.pem && o35 pkey -in ed.pem -pubout -out edpub.pem
same_error "wrong key type (Ed25519), -encap" -encap -inkey edpub.pem -out ct.bin -secret s.bin
same_error "wrong key type (Ed25519), -decap" -decap -inkey ed.pem -in c35.bin -secret s.bin
head -c 1000 c35.bin >short.bin
same_error "ciphertext of 1000 bytes for ML-KEM-768" -decap -inkey "$K" -in short.bin -secret s.bin
grep -q 'ciphertext: 1000 bytes, expected 1088' eours.err &&
    ok "  the provider's reason: '$(grep -o 'ML-KEM-768 ciphertext.*' eours.err)'" ||
    fail "no provider reason: $(cat eours.err)"
cat c35.bin c35.bin >long.bin
same_error "ciphertext of 2176 bytes for ML-KEM-768" -decap -inkey "$K" -in long.bin -secret s.bin
same_error "missing key file" -decap -inkey nosuch.pem -in c35.bin -secret s.bin
same_error "missing public key file" -encap -inkey nosuch.pem -out ct.bin -secret s.bin
same_error "missing ciphertext file" -decap -inkey "$K" -in nosuch.bin -secret s.bin
same_error "secret into a missing directory" -decap -inkey "$K" -in c35.bin -secret nodir/s.bin
same_error "encrypted key, no pass phrase, no terminal" -decap -inkey enc.pem -in c35.bin -secret s.bin
same_error "encrypted key, wrong pass phrase" -decap -inkey enc.pem -passin pass:wrong -in c35.bin -secret s.bin
same_error "-passin env: unset" -decap -inkey enc.pem -passin env:MLKEM_NO_SUCH_VAR -in c35.bin
same_error "-passin without a source" -decap -inkey enc.pem -passin secret -in c35.bin
same_error "-encap without -secret" -encap -inkey "$P" -out ct.bin
same_error "-decap with -out and -secret" -decap -inkey "$K" -in c35.bin -out o.bin -secret s.bin
same_error "-decap with a public key" -decap -inkey "$P" -pubin -in c35.bin -secret s.bin
same_error "unknown option" -decapp -inkey "$K"
same_error "no -inkey" -encap -out ct.bin -secret s.bin
same_error "-in without its value" -decap -inkey "$K" -in
# Unreadable files (as nobody when root: root reads every file).
cp "$K" unreadable.pem && cp c35.bin unreadable.bin && chmod 000 unreadable.pem unreadable.bin
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
[ "$(id -u)" = 0 ] || NOBODY=(env) # not root: mode 000 is unreadable already
for what in key ciphertext; do
    if [ "$what" = key ]; then args=(-decap -inkey unreadable.pem -in c35.bin); else args=(-decap -inkey "$K" -in unreadable.bin); fi
    chmod 644 "$K" c35.bin
    run e35 "${NOBODY[@]}" ./p35 "${args[@]}"
    run eours "${NOBODY[@]}" ./ours "${args[@]}"
    if [ "$(cat e35.rc)$(cat eours.rc)" = 11 ] && grep -q 'Permission denied' eours.err &&
        [ "$(texts e35)" = "$(texts eours)" ]; then
        ok "unreadable $what (as nobody): '$(texts eours | head -n 1)'"
    else
        fail "unreadable $what: 3.5 $(cat e35.rc) $(cat e35.err); ours $(cat eours.rc) $(cat eours.err)"
    fi
done

test_finish
