#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli_interop.sh: our provider against the own ML-KEM of OpenSSL 3.5 (or of
# another peer release, MLKEM_PEER), through that release's command line,
# each side in its own invocation.
#
# Usage: cli_interop.sh <dir of mlkem.so> [<path of examples' mlkem_evp>]
# Env:   MLKEM_PEER (3.5 by default; 4.0 for provider_cli_interop_40);
#        the peer's prefix is what `scripts/openssl-peer.sh <release>
#        --print-prefix` says (MLKEM_OPENSSL35_PREFIX, MLKEM_OPENSSL40_PREFIX
#        or the default cache); skipped (77) when there is none. The
#        example program must be built for
#        the peer's libcrypto (mlkem_evp_40 for 4.0's libcrypto.so.4).
#
#   OURS   = -provider-path DIR -provider mlkem -provider default
#            -propquery '?provider=mlkem'    (our provider preferred)
#   THEIRS = no provider options             (the peer's default provider)
#   EXCL   = -provider-path DIR -provider mlkem -provider base
#            (base has no ML-KEM key management and no KEM: anything ML-KEM
#             that works here was done by our provider)
#
# For ML-KEM-512/768/1024:
#   1. our key file + their encap + our decap; their key file + our encap +
#      their decap; secrets compared with cmp;
#   2. the same with OURS replaced by EXCL and a fixed ikme (base has no
#      DRBG), which proves our KEM did the encap / decap, and equals the
#      notes' KAT secret for the seed-00..3f key;
#   3. genpkey -pkeyopt hexseed: ours and theirs byte-identical (private
#      DER, public DER, text);
#   4. each of the six private key forms written by one side is read by the
#      other (the peer: -provparam ml-kem.output_formats; ours: openssl.cnf);
#   5. the example program on the peer (it prefers our provider).
# Which provider served each codec step is proven by our opt-in trace
# (MLKEM_TRACE=1: "mlkem: decode ML-KEM-768 PrivateKeyInfo seed-priv");
# THEIRS runs never load our module, and their stderr must be trace-free.
set -euo pipefail

# A sanitizer build's mlkem.so needs the sanitizer runtime, which an
# uninstrumented `openssl` binary does not load: san_wrap runs it with the
# runtime preloaded (test/common/san.sh), and any sanitizer report of any
# program run here fails the test.
# shellcheck source-path=SCRIPTDIR source=../common/san.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/san.sh"
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"

DIR=${1:?usage: cli_interop.sh <dir of mlkem.so> [mlkem_evp]}
EVP=${2:-}
PEER=${MLKEM_PEER:-3.5}
P=$(peer_prefix "$PEER")
[ -n "$P" ] ||
    skip "no OpenSSL $PEER peer (scripts/openssl-peer.sh $PEER --print-prefix finds none; scripts/openssl-peer.sh $PEER builds it)"
[ -f "$DIR/mlkem.so" ] || { echo "FAIL: no $DIR/mlkem.so"; exit 1; }
export LD_LIBRARY_PATH="$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset OPENSSL_CONF OPENSSL_MODULES
O35="$P/bin/openssl"

T=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-interop-XXXXXX")
trap 'rm -rf "$T"' EXIT
san_init "$T" || {
    echo "SKIP: sanitizer build (MLKEM_SANITIZE=$MLKEM_SANITIZE): $SAN_WHY"
    exit 77
}
O35=$(san_wrap "$O35")
cd "$T"
OURS=(-provider-path "$DIR" -provider mlkem -provider default -propquery '?provider=mlkem')
EXCL=(-provider-path "$DIR" -provider mlkem -provider base)
SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
IKME=404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f
declare -A KAT
KAT[512]=14cace3e48771b316676afad2cfcfe8488daaa4fad954e57236caa3f24a42cf7
KAT[768]=9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1
KAT[1024]=0ad8d1ea1b8dd788979b4379581218df9321bdce5567eca42ae6be7d395f1a54

echo "openssl: $("$O35" version)"
# ours / excl / theirs <tag> <openssl args...>: stderr (with trace) to <tag>.tr
ours() { local t=$1; shift; MLKEM_TRACE=1 "$O35" "$@" "${OURS[@]}" 2>"$t.tr"; }
excl() { local t=$1; shift; MLKEM_TRACE=1 "$O35" "$@" "${EXCL[@]}" 2>"$t.tr"; }
theirs() {
    local t=$1 rc=0; shift
    MLKEM_TRACE=1 "$O35" "$@" 2>"$t.tr" || rc=$?
    if grep -q '^mlkem: ' "$t.tr"; then
        fail "$t: our provider ran in a default-only invocation"
    fi
    return $rc
}
expect_trace() { grep -qxF "mlkem: $2" "$1.tr" || { fail "$1: no trace \"mlkem: $2\""; cat "$1.tr"; }; }
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

# The premise of the exclusion runs: base offers no ML-KEM KEM or keymgmt.
"$O35" list -kem-algorithms -provider base >base.kem 2>&1
"$O35" list -key-managers -provider base >base.km 2>&1
if grep -qi 'ML-KEM' base.kem base.km; then
    fail "the base provider offers ML-KEM; the exclusion proof does not hold"
fi
"$O35" list -kem-algorithms "${EXCL[@]}" >excl.kem 2>&1
grep -q 'ML-KEM-768.* @ mlkem' excl.kem || { fail "mlkem offers no ML-KEM-768 KEM"; cat excl.kem; }

for B in 512 768 1024; do
    A=ML-KEM-$B
    echo "== $A"
    # Key files, each side its own.
    ours gen genpkey -algorithm "$A" -out ours.pem || fail "$A: our genpkey"
    expect_trace gen "encode $A PrivateKeyInfo seed-priv pem"
    ours pub pkey -in ours.pem -pubout -out ours-pub.pem || fail "$A: our pkey -pubout"
    expect_trace pub "decode $A PrivateKeyInfo seed-priv"
    expect_trace pub "encode $A SubjectPublicKeyInfo pem"
    theirs tgen genpkey -algorithm "$A" -out theirs.pem || fail "$A: their genpkey"
    theirs tpub pkey -in theirs.pem -pubout -out theirs-pub.pem || fail "$A: their pkey -pubout"

    # 1. our key file + their encap + our decap.
    theirs enc1 pkeyutl -encap -inkey ours-pub.pem -pubin -out ct1.bin -secret ss1a.bin \
        || fail "$A: their encap to our key"
    ours dec1 pkeyutl -decap -inkey ours.pem -in ct1.bin -secret ss1b.bin || fail "$A: our decap"
    expect_trace dec1 "decode $A PrivateKeyInfo seed-priv"
    cmp -s ss1a.bin ss1b.bin || fail "$A: their encap / our decap secrets differ"
    #    their key file + our encap + their decap.
    ours enc2 pkeyutl -encap -inkey theirs-pub.pem -pubin -out ct2.bin -secret ss2a.bin \
        || fail "$A: our encap to their key"
    expect_trace enc2 "decode $A SubjectPublicKeyInfo"
    theirs dec2 pkeyutl -decap -inkey theirs.pem -in ct2.bin -secret ss2b.bin || fail "$A: their decap"
    cmp -s ss2a.bin ss2b.bin || fail "$A: our encap / their decap secrets differ"
    [ "$(stat -c %s ss2a.bin)" = 32 ] || fail "$A: secret length"

    # 2. Exclusion: only our provider can do ML-KEM here.
    excl enc3 pkeyutl -encap -inkey theirs-pub.pem -pubin -pkeyopt hexikme:$IKME \
        -out ct3.bin -secret ss3a.bin || { fail "$A: encap with mlkem+base"; cat enc3.tr; }
    theirs dec3 pkeyutl -decap -inkey theirs.pem -in ct3.bin -secret ss3b.bin || fail "$A: their decap 3"
    cmp -s ss3a.bin ss3b.bin || fail "$A: our (exclusive) encap / their decap secrets differ"
    theirs enc4 pkeyutl -encap -inkey ours-pub.pem -pubin -out ct4.bin -secret ss4a.bin \
        || fail "$A: their encap 4"
    excl dec4 pkeyutl -decap -inkey ours.pem -in ct4.bin -secret ss4b.bin \
        || { fail "$A: decap with mlkem+base"; cat dec4.tr; }
    expect_trace dec4 "decode $A PrivateKeyInfo seed-priv"
    cmp -s ss4a.bin ss4b.bin || fail "$A: their encap / our (exclusive) decap secrets differ"

    # 3. Deterministic keys: byte-identical files, and the KAT.
    ours sgen genpkey -algorithm "$A" -pkeyopt hexseed:$SEED -outform DER -out ours-seed.der \
        || fail "$A: our hexseed genpkey"
    theirs tsgen genpkey -algorithm "$A" -pkeyopt hexseed:$SEED -outform DER -out theirs-seed.der \
        || fail "$A: their hexseed genpkey"
    cmp ours-seed.der theirs-seed.der || fail "$A: hexseed private keys differ"
    ours spub pkey -inform DER -in ours-seed.der -pubout -outform DER -out ours-seedpub.der \
        || fail "$A: our pubout"
    theirs tspub pkey -inform DER -in theirs-seed.der -pubout -outform DER -out theirs-seedpub.der \
        || fail "$A: their pubout"
    cmp ours-seedpub.der theirs-seedpub.der || fail "$A: hexseed public keys differ"
    "$O35" pkey -inform DER -in ours-seed.der -text -noout "${OURS[@]}" >ours.txt 2>/dev/null \
        || fail "$A: our -text"
    "$O35" pkey -inform DER -in theirs-seed.der -text -noout >theirs.txt || fail "$A: their -text"
    cmp ours.txt theirs.txt || fail "$A: -text output differs"
    excl kat pkeyutl -encap -inkey ours-seedpub.der -pubin -pkeyopt hexikme:$IKME \
        -out ct5.bin -secret ss5.bin || fail "$A: KAT encap"
    [ "$(hex ss5.bin)" = "${KAT[$B]}" ] || fail "$A: KAT secret $(hex ss5.bin)"
    theirs tkat pkeyutl -encap -inkey theirs-seedpub.der -pubin -pkeyopt hexikme:$IKME \
        -out ct6.bin -secret ss6.bin || fail "$A: their KAT encap"
    cmp -s ct5.bin ct6.bin && cmp -s ss5.bin ss6.bin || fail "$A: KAT ciphertext/secret differ from $PEER's"

    # 4. All six private key forms, both directions.
    for F in seed-priv seed-only priv-only oqskeypair bare-seed bare-priv; do
        theirs tf pkey -inform DER -in theirs-seed.der -outform DER -out t-$F.der \
            -provparam ml-kem.output_formats=$F || fail "$A: $PEER writes $F"
        ours rf pkey -inform DER -in t-$F.der -pubout -outform DER -out rt.der \
            || fail "$A: we read $PEER's $F"
        expect_trace rf "decode $A PrivateKeyInfo $F"
        cmp -s rt.der theirs-seedpub.der || fail "$A: $PEER's $F read as another key"
        write_provider_cnf f.cnf "$DIR" "ml-kem.output_formats = $F"
        OPENSSL_CONF=f.cnf MLKEM_TRACE=1 "$O35" pkey -inform DER -in ours-seed.der -outform DER \
            -out o-$F.der -propquery '?provider=mlkem' 2>of.tr || fail "$A: we write $F"
        expect_trace of "encode $A PrivateKeyInfo $F der"
        cmp -s o-$F.der t-$F.der || fail "$A: our $F bytes differ from $PEER's"
        theirs tr pkey -inform DER -in o-$F.der -pubout -outform DER -out rt.der \
            || fail "$A: $PEER reads our $F"
        cmp -s rt.der theirs-seedpub.der || fail "$A: our $F read by $PEER as another key"
    done
done

# 6. Refused keys: OpenSSL 3.5's `openssl pkey` shows our reason for a
#    private key (the key management refuses the decoder's key; 3.5's
#    decoder treats that as a hard error and its store loader keeps the
#    reason). For `pkey -pubin` 3.5 says only "unsupported", for its own
#    ML-KEM too (checked here); our trace still names the reason.
echo "== refused keys"
ours bgen genpkey -algorithm ML-KEM-768 -pkeyopt hexseed:$SEED -outform DER -out b768.der \
    || fail "refused keys: genpkey"
ours bpub pkey -inform DER -in b768.der -pubout -outform DER -out b768pub.der \
    || fail "refused keys: pubout"
python3 - <<'EOF' || fail "python3 for the refused keys"
import base64
def pem(name, label, d):
    b = base64.encodebytes(bytes(d)).decode().replace("\n", "")
    open(name, "w").write("-----BEGIN " + label + "-----\n"
        + "\n".join(b[i:i + 64] for i in range(0, len(b), 64))
        + "\n-----END " + label + "-----\n")
d = bytearray(open("b768.der", "rb").read())
d[30] ^= 0x01                        # a byte of the seed in seed-priv
pem("badseed.pem", "PRIVATE KEY", d)
d = bytearray(open("b768pub.der", "rb").read())
d[22] = 0xff; d[23] |= 0x0f          # first ek coefficient = 0xfff >= q
pem("badpub.pem", "PUBLIC KEY", d)
EOF
for who in ours excl; do
    if $who rs pkey -in badseed.pem -noout; then
        fail "$who: inconsistent seed-priv key accepted"
    fi
    grep -q ':mlkem:.*:seed does not match private key:' rs.tr \
        || { fail "$who: $PEER's pkey does not show our reason"; cat rs.tr; }
    if $who rp pkey -pubin -in badpub.pem -noout; then
        fail "$who: unreduced ek accepted"
    fi
    expect_trace rp "decode ML-KEM-768 SubjectPublicKeyInfo rejected: encapsulation key not reduced mod q"
done
if theirs tp pkey -pubin -in badpub.pem -noout; then
    fail "$PEER accepted the unreduced ek"
fi
grep -q 'unsupported' tp.tr || { fail "$PEER's own -pubin message changed:"; cat tp.tr; }
grep -m1 ':mlkem:' rs.tr | sed "s/^/   $PEER says: /"

if [ -n "$EVP" ]; then
    echo "== example on $PEER"
    "$EVP" --provider-path "$DIR" >demo.out || fail "example demo on $PEER"
    grep -q "^providers: mlkem, default (OpenSSL ${PEER//./\\.}\\." demo.out || fail "demo: not on $PEER"
    grep -q '^generated ML-KEM-768 key pair (provider mlkem' demo.out \
        || fail "demo: our provider not preferred on $PEER"
    grep -qx 'OK: both sides hold the same shared secret' demo.out || fail "demo: secrets"
fi

san_check "$T" || fail "sanitizer report(s), above"
test_finish
