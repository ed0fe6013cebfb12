#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli_30.sh: the system OpenSSL 3.0 command line with the mlkem provider.
#
# Usage: cli_30.sh <dir of mlkem.so> [<path of examples' mlkem_evp>]
# Env:   OPENSSL (default: openssl on PATH)
#
# For ML-KEM-512/768/1024: genpkey (random and -pkeyopt hexseed), pkey
# -pubout / -text / -text_pub / DER / encrypted PEM, ml-kem.output_formats
# set in an openssl.cnf, and (3.0 has no `pkeyutl -encap/-decap`)
# encapsulation / decapsulation with the example program. Expected bytes
# are OpenSSL 3.5.7's (SHA-256 of its encodings of the key from seed
# 00..3f, as in test_codecs_expected.h). Which provider served a step is
# proven by the provider's opt-in trace (MLKEM_TRACE=1: one stderr line per
# encode/decode naming set, structure and format) and, for a malformed key,
# by the provider's own reason string.
set -euo pipefail

# A sanitizer build's mlkem.so needs the sanitizer runtime, which an
# uninstrumented `openssl` binary does not load: san_wrap runs it with the
# runtime preloaded (test/common/san.sh), and any sanitizer report of any
# program run here fails the test.
# shellcheck source-path=SCRIPTDIR source=../common/san.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/san.sh"
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"

DIR=${1:?usage: cli_30.sh <dir of mlkem.so> [mlkem_evp]}
EVP=${2:-}
OPENSSL=${OPENSSL:-openssl}
[ -n "$OPENSSL" ] || OPENSSL=openssl
command -v "$OPENSSL" >/dev/null || { echo "SKIP: no openssl CLI"; exit 77; }
[ -f "$DIR/mlkem.so" ] || { echo "FAIL: no $DIR/mlkem.so"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-cli30-XXXXXX")
trap 'rm -rf "$T"' EXIT
san_init "$T" || {
    echo "SKIP: sanitizer build (MLKEM_SANITIZE=$MLKEM_SANITIZE): $SAN_WHY"
    exit 77
}
OPENSSL=$(san_wrap "$OPENSSL")
cd "$T"
unset OPENSSL_CONF
PROV=(-provider-path "$DIR" -provider mlkem -provider default)
SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f

echo "openssl: $("$OPENSSL" version)"
sha() { sha256sum "$1" | cut -c1-64; }
# run <trace file> <openssl args...>: run with the trace on, stderr to file
run() { local tr=$1; shift; MLKEM_TRACE=1 "$OPENSSL" "$@" 2>"$tr"; }
# expect_trace <file> <line>: the provider wrote exactly this trace line
expect_trace() { grep -qxF "mlkem: $2" "$1" || { fail "no trace \"mlkem: $2\" in $1:"; cat "$1"; }; }

# 3.5.7's bytes for the key from seed 00..3f (see test_codecs_expected.h).
declare -A SPKI SEEDPRIV SEEDONLY PRIVONLY TEXT TEXTPUB CTLEN
SPKI[512]=0e3c8b89b54202d2545f7aba2e2aaa3cffa7b6191919ad738fab35b4f313cf71
SPKI[768]=c23e23dd3d485a9256cda09358a4a286e00b373db10761eadf99f710649ca31c
SPKI[1024]=d2b7480ae006a14b37c1e8a8e45ea39022e32a9b1a7b90d594c84d869c6ac420
SEEDPRIV[512]=8426d7497a2ff1a4854b7d1ece4e8f976c721f314c3f653189f8e4b2a2bc5b0d
SEEDPRIV[768]=95738d2a0b7252a16b1474b9fb4e0c8ddaa6fe70db7903ade4a385909ee0d165
SEEDPRIV[1024]=91004b1817d798dd3972439b8332a3a1b862f89c4e98b4ca2accd4f21afb9abb
SEEDONLY[512]=0fc934e3fb800359c219f4ede9fe4a1ae14018a20db779dcbaf2c8aba4fd6156
SEEDONLY[768]=67d4dc57d8f9e28816f4a3495abc48dd416b0da9bd1e1de4716ad0883b9ad6b8
SEEDONLY[1024]=2c19d9d89d8c36ffb9eab0f3bb18dd90a47aaca3653bede67953173514d61234
PRIVONLY[512]=38be7feecbbe6e6e466a0d7b5bb53e09040c3678e22fb2c0772c701c2372c858
PRIVONLY[768]=994f7473b34fad03c2b36a500af9002dad15afa50473cef5ea217325c7156f9e
PRIVONLY[1024]=9cded660a340a6e7fdb93a4984e1e67764ade8e59be4db48b6921aeee5e6c795
TEXT[512]=6f77e7c897d659defe7fb977115d2a72379028a49d3b3c08843bcc9643174a22
TEXT[768]=19b5b6fe6f000469f702e1a1dfbda498529ecd9e63e98b8645d6e6c557d27b05
TEXT[1024]=7784d59337be85e0d6a1440c9a8ce30a3fc99b0ffac87ee8251d5acfcdda3600
TEXTPUB[512]=44aa8b6b193d34f1cb1b3fb386815fc518f801235bd0dd50ae377b5a8f1da126
TEXTPUB[768]=364f53a4f819b509bdbe845747b0dbe3b149220ac08b9c5a173b80a380094c2a
TEXTPUB[1024]=00dcf5aaf23249d6fd77e45f52df5897ea625ffec8a808a5efa47aa5d1802114
CTLEN[512]=768
CTLEN[768]=1088
CTLEN[1024]=1568

for B in 512 768 1024; do
    A=ML-KEM-$B
    echo "== $A"
    # Random key, PEM.
    run g.tr genpkey "${PROV[@]}" -algorithm "$A" -out priv$B.pem || fail "$A genpkey"
    expect_trace g.tr "encode $A PrivateKeyInfo seed-priv pem"
    head -1 priv$B.pem | grep -qx -- '-----BEGIN PRIVATE KEY-----' || fail "$A PEM label"
    run p.tr pkey "${PROV[@]}" -in priv$B.pem -pubout -out pub$B.pem || fail "$A pkey -pubout"
    expect_trace p.tr "decode $A PrivateKeyInfo seed-priv"
    expect_trace p.tr "encode $A SubjectPublicKeyInfo pem"
    head -1 pub$B.pem | grep -qx -- '-----BEGIN PUBLIC KEY-----' || fail "$A public PEM label"
    "$OPENSSL" pkey "${PROV[@]}" -in priv$B.pem -text -noout >t.txt || fail "$A -text"
    head -2 t.txt | tr '\n' '|' | grep -qx "$A Private-Key:|seed:|" || fail "$A text header"
    [ "$(grep -c '^[a-z]*:$' t.txt)" = 3 ] || fail "$A text: seed, dk, ek"

    # Deterministic key: byte-identical to OpenSSL 3.5.7.
    run s.tr genpkey "${PROV[@]}" -algorithm "$A" -pkeyopt hexseed:$SEED -outform DER -out seed$B.der \
        || fail "$A genpkey hexseed"
    [ "$(sha seed$B.der)" = "${SEEDPRIV[$B]}" ] || fail "$A hexseed key differs from 3.5's seed-priv"
    "$OPENSSL" pkey "${PROV[@]}" -inform DER -in seed$B.der -pubout -outform DER -out seedpub$B.der \
        || fail "$A pubout DER"
    [ "$(sha seedpub$B.der)" = "${SPKI[$B]}" ] || fail "$A SPKI differs from 3.5's"
    "$OPENSSL" pkey "${PROV[@]}" -inform DER -in seed$B.der -text -noout >t.txt || fail "$A text"
    [ "$(sha t.txt)" = "${TEXT[$B]}" ] || fail "$A private text differs from 3.5's"
    "$OPENSSL" pkey "${PROV[@]}" -pubin -inform DER -in seedpub$B.der -text_pub -noout >t.txt \
        || fail "$A text_pub"
    [ "$(sha t.txt)" = "${TEXTPUB[$B]}" ] || fail "$A public text differs from 3.5's"
    # DER <-> PEM round trip.
    "$OPENSSL" pkey "${PROV[@]}" -inform DER -in seed$B.der -out seed$B.pem || fail "$A DER->PEM"
    "$OPENSSL" pkey "${PROV[@]}" -in seed$B.pem -outform DER -out rt.der || fail "$A PEM->DER"
    cmp -s rt.der seed$B.der || fail "$A DER/PEM round trip"

    # Encrypted PKCS#8.
    "$OPENSSL" pkey "${PROV[@]}" -in seed$B.pem -aes256 -passout pass:s3cret -out enc.pem \
        || fail "$A encrypt"
    head -1 enc.pem | grep -qx -- '-----BEGIN ENCRYPTED PRIVATE KEY-----' || fail "$A encrypted label"
    "$OPENSSL" pkey "${PROV[@]}" -in enc.pem -passin pass:s3cret -outform DER -out rt.der \
        || fail "$A decrypt"
    cmp -s rt.der seed$B.der || fail "$A encrypted round trip"
    if "$OPENSSL" pkey "${PROV[@]}" -in enc.pem -passin pass:wrong -noout 2>/dev/null; then
        fail "$A wrong passphrase accepted"
    fi

    # ml-kem.output_formats in openssl.cnf (the provider's section).
    for F in seed-only priv-only; do
        write_provider_cnf f.cnf "$DIR" "ml-kem.output_formats = $F"
        OPENSSL_CONF=f.cnf MLKEM_TRACE=1 "$OPENSSL" pkey -in seed$B.pem -outform DER -out f.der 2>f.tr \
            || fail "$A output_formats=$F"
        expect_trace f.tr "encode $A PrivateKeyInfo $F der"
        want=${SEEDONLY[$B]}
        [ $F = priv-only ] && want=${PRIVONLY[$B]}
        [ "$(sha f.der)" = "$want" ] || fail "$A output_formats=$F bytes differ from 3.5's"
        run f.tr pkey "${PROV[@]}" -inform DER -in f.der -pubout -outform DER -out rt.der \
            || fail "$A read $F"
        expect_trace f.tr "decode $A PrivateKeyInfo $F"
        cmp -s rt.der seedpub$B.der || fail "$A $F key has another public key"
    done

    # Encapsulation / decapsulation (example program; 3.0 has no pkeyutl -encap).
    if [ -n "$EVP" ]; then
        "$EVP" --provider-path "$DIR" encap pub$B.pem ct.bin ss1.bin >/dev/null || fail "$A encap"
        "$EVP" --provider-path "$DIR" decap priv$B.pem ct.bin ss2.bin >/dev/null || fail "$A decap"
        [ "$(stat -c %s ct.bin)" = "${CTLEN[$B]}" ] || fail "$A ciphertext length"
        [ "$(stat -c %s ss1.bin)" = 32 ] || fail "$A secret length"
        cmp -s ss1.bin ss2.bin || fail "$A encap/decap secrets differ"
        # Another key's decapsulation gives another (implicitly rejected) secret.
        "$EVP" --provider-path "$DIR" decap seed$B.pem ct.bin ss3.bin >/dev/null || fail "$A decap other"
        cmp -s ss1.bin ss3.bin && fail "$A another key decapsulated to the same secret"
    fi
done

# A malformed or inconsistent key is refused with our reason. OpenSSL 3.0's
# store loader (what `openssl pkey` uses) drops the reasons of a failed key
# decode and says only "unsupported" (3.5 keeps them: cli_interop.sh); with
# MLKEM_TRACE=1 the provider prints the reason, and programs that decode
# through EVP (PEM_read_bio_PrivateKey, d2i_*, OSSL_DECODER; the example
# program here) get it on the error queue.
echo "== malformed keys"
python3 - <<'EOF' || fail "python3 for the malformed keys"
import base64
def pem(name, label, d):
    b = base64.encodebytes(bytes(d)).decode().replace("\n", "")
    open(name, "w").write("-----BEGIN " + label + "-----\n"
        + "\n".join(b[i:i + 64] for i in range(0, len(b), 64))
        + "\n-----END " + label + "-----\n")
d = bytearray(open("seedpub768.der", "rb").read())
d[22] = 0xff; d[23] |= 0x0f          # first ek coefficient = 0xfff >= q
open("bad.der", "wb").write(d)
pem("bad.pem", "PUBLIC KEY", d)
d = bytearray(open("seed768.der", "rb").read())
d[30] ^= 0x01                        # a byte of the seed in seed-priv
pem("badseed.pem", "PRIVATE KEY", d)
EOF
if run b.tr pkey "${PROV[@]}" -pubin -inform DER -in bad.der -noout; then
    fail "unreduced ek accepted by pkey"
fi
expect_trace b.tr "decode ML-KEM-768 SubjectPublicKeyInfo rejected: encapsulation key not reduced mod q"
if run bs.tr pkey "${PROV[@]}" -in badseed.pem -noout; then
    fail "a seed-priv key whose seed does not match dk accepted by pkey"
fi
expect_trace bs.tr "decode ML-KEM-768 PrivateKeyInfo rejected: seed does not match private key"
echo "   $("$OPENSSL" version | cut -d' ' -f1-2) pkey without the trace says:"
"$OPENSSL" pkey "${PROV[@]}" -in badseed.pem -noout 2>&1 | sed 's/^/     /' || true
if [ -n "$EVP" ]; then
    if "$EVP" --provider-path "$DIR" encap bad.pem ct.bin ss.bin >/dev/null 2>b.err; then
        fail "unreduced ek accepted by encap"
    fi
    grep -q ':mlkem:.*:encapsulation key not reduced mod q:' b.err \
        || { fail "no mlkem reason for the unreduced ek"; cat b.err; }
    if "$EVP" --provider-path "$DIR" decap badseed.pem ct.bin ss.bin >/dev/null 2>bs.err; then
        fail "inconsistent seed-priv key accepted by decap"
    fi
    grep -q ':mlkem:.*:seed does not match private key:' bs.err \
        || { fail "no mlkem reason for the inconsistent key"; cat bs.err; }
fi

# A mistyped configuration key is reported: in the build info that
# `openssl list -providers -verbose` prints, and, only with MLKEM_TRACE set,
# once on stderr; a correct configuration prints nothing.
echo "== configuration errors"
write_provider_cnf typo.cnf "$DIR" "retain_sed = no"
OPENSSL_CONF=typo.cnf "$OPENSSL" list -providers -verbose >typo.out 2>typo.err \
    || fail "list -providers with a mistyped key"
grep -q 'build info: mlkem .*; configuration error: retain_sed: unknown key' typo.out \
    || { fail "the build info does not name the mistyped key"; cat typo.out; }
[ -s typo.err ] && { fail "stderr output without MLKEM_TRACE"; cat typo.err; }
OPENSSL_CONF=typo.cnf MLKEM_TRACE=1 "$OPENSSL" list -providers >/dev/null 2>typo.tr \
    || fail "list -providers with MLKEM_TRACE"
expect_trace typo.tr "configuration: retain_sed: unknown key (ignored; known: ml-kem.retain_seed, ml-kem.prefer_seed, ml-kem.output_formats, ml-kem.input_formats, decoders)"
[ "$(grep -c '^mlkem: configuration:' typo.tr)" = 1 ] || { fail "not logged once"; cat typo.tr; }
sed 's/^retain_sed = no$/retain_seed = no/' typo.cnf >good.cnf
OPENSSL_CONF=good.cnf MLKEM_TRACE=1 "$OPENSSL" list -providers -verbose >good.out 2>good.tr \
    || fail "list -providers with a correct key"
grep -q 'configuration error' good.out good.tr && { fail "a correct key was reported"; cat good.out good.tr; }

# decoders = no (the TLS-only setting): `openssl list -decoders` shows none
# of ours, the key managers and KEMs stay, and the key files we write no
# longer read back on 3.0 (no other provider decodes ML-KEM there).
echo "== decoders = no"
sed 's/^retain_sed = no$/decoders = no/' typo.cnf >nodec.cnf
OPENSSL_CONF=good.cnf "$OPENSSL" list -decoders >dec.out 2>&1 || fail "list -decoders"
OPENSSL_CONF=nodec.cnf "$OPENSSL" list -decoders >nodec.out 2>&1 || fail "list -decoders (decoders = no)"
grep -q '@ mlkem' dec.out || { fail "no mlkem decoder listed by default"; cat dec.out; }
grep -q '@ mlkem' nodec.out && { fail "mlkem decoders listed with decoders = no"; cat nodec.out; }
OPENSSL_CONF=nodec.cnf "$OPENSSL" list -key-managers -kem-algorithms >nodec_km.out 2>&1 \
    || fail "list -key-managers (decoders = no)"
grep -q 'ML-KEM-768.*@ mlkem' nodec_km.out || { fail "ML-KEM missing with decoders = no"; cat nodec_km.out; }
OPENSSL_CONF=nodec.cnf "$OPENSSL" genpkey -algorithm ML-KEM-768 -out nodec.pem 2>nodec.err \
    || { fail "genpkey with decoders = no"; cat nodec.err; }
if OPENSSL_CONF=nodec.cnf "$OPENSSL" pkey -in nodec.pem -noout 2>/dev/null; then
    fail "an ML-KEM key file read on 3.0 with decoders = no"
fi
OPENSSL_CONF=good.cnf "$OPENSSL" pkey -in nodec.pem -noout || fail "the same file with decoders"

if [ -n "$EVP" ]; then
    echo "== example demo"
    "$EVP" --provider-path "$DIR" >demo.out || fail "example demo"
    grep -q '^generated ML-KEM-768 key pair (provider mlkem' demo.out || fail "demo: provider"
    grep -qx 'OK: both sides hold the same shared secret' demo.out || fail "demo: secrets"
else
    echo "(no example program given: encap/decap steps not run)"
fi

san_check "$T" || fail "sanitizer report(s), above"
test_finish
