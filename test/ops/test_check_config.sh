#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_check_config.sh: `mlkem-check --config` (tools/mlkem_check_config.c)
# on examples/tls/openssl-pq.cnf and on each one-line mistake that leaves
# only the default provider active while OpenSSL 3.0 says nothing (checked
# here too: `openssl list -providers` exits 0 without mlkem):
#   mlkem = mlkem_sec, [mlkem_sectt], actvate = 1, a module path that does
#   not exist, module = mlkem (no .so), a module that is no OpenSSL module;
# plus an unknown ml-kem.* key and a bad value (the provider's own
# config-error), a file that cannot be read (exit 2), and the file taken
# from OPENSSL_CONF, usage errors. Each broken file: exit 1, the problem named in words,
# "mlkem is NOT active", X25519MLKEM768 unknown to this OpenSSL.
set -u
SRC=${MLKEM_SOURCE_DIR:?}
CHECK=${MLKEM_BINARY_DIR:?}/tools/mlkem-check
PROV_DIR=${MLKEM_PROVIDER_DIR:?}
CNF=$SRC/examples/tls/openssl-pq.cnf
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
[ -x "$CHECK" ] || { echo "FAIL: $CHECK not built" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-check-config.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export OPENSSL_MODULES=$PROV_DIR
unset OPENSSL_CONF MLKEM_TRACE

# doctor NAME FILE: output in $tmp/NAME.out, status in $rc
doctor() { timeout 30 "$CHECK" --config "$2" >"$tmp/$1.out" 2>&1; rc=$?; }
has() { grep -qxF -- "$2" "$tmp/$1.out"; }

# 1. The correct file.
doctor good "$CNF"
version=$(sed -n 's/^#define MLKEM_VERSION_STR "\(.*\)"/\1/p' "$SRC"/provider/*.h | head -n 1)
if [ "$rc" = 0 ] && has good "mlkem:    active from the configuration" &&
    has good "module:   $PROV_DIR/mlkem.so (module = mlkem.so in [mlkem_sect], looked up in \$OPENSSL_MODULES $PROV_DIR)" &&
    grep -Eq '^version:  [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/good.out" &&
    { [ -z "$version" ] || has good "version:  $version"; } &&
    grep -Eq '^backend:  [a-z0-9-]+$' "$tmp/good.out" &&
    grep -Eq '^group:    X25519MLKEM768 +known to this OpenSSL$' "$tmp/good.out" &&
    ! grep -q '^problem:' "$tmp/good.out" && has good "result:   OK"; then
    ok "openssl-pq.cnf: exit 0, active, $(grep '^module:' "$tmp/good.out" | cut -c11-60)..., $(grep '^backend:' "$tmp/good.out")"
else
    fail "openssl-pq.cnf: exit $rc: $(cat "$tmp/good.out")"
fi
OPENSSL_CONF=$CNF timeout 30 "$CHECK" --config >"$tmp/env.out" 2>&1
[ $? = 0 ] && has env "config:   $CNF (OPENSSL_CONF)" && has env "result:   OK" &&
    ok "no FILE: OPENSSL_CONF is read ('config:   ... (OPENSSL_CONF)')" ||
    fail "OPENSSL_CONF: $(cat "$tmp/env.out")"

# The system-wide set-up the README gives: the distribution's openssl.cnf
# (OpenSSL's default file) with the .include line at its end.
sys=$(openssl version -d | sed 's/^OPENSSLDIR: "\(.*\)"$/\1/')/openssl.cnf
{ cat "$sys"; echo ".include $CNF"; } >"$tmp/system.cnf"
doctor system "$tmp/system.cnf"
[ "$rc" = 0 ] && has system "mlkem:    active from the configuration" && has system "result:   OK" &&
    ok "$sys + '.include openssl-pq.cnf' at its end: active, exit 0" ||
    fail "$sys + .include: exit $rc: $(cat "$tmp/system.out")"

# The provider under another name: found by its module, active as "pq".
sed 's/^mlkem   = mlkem_sect$/pq = mlkem_sect/' "$CNF" >"$tmp/pq.cnf"
doctor pq "$tmp/pq.cnf"
[ "$rc" = 0 ] && has pq "active:   default pq" && has pq "mlkem:    active from the configuration" &&
    ok "pq = mlkem_sect (module = mlkem.so): active, exit 0" || fail "pq: exit $rc: $(cat "$tmp/pq.out")"

# 2. The one-line mistakes: each is silent in OpenSSL 3.0, named here.
# broken NAME SED-EXPRESSION EXPECTED-PROBLEM-LINE
broken() {
    local name=$1 expr=$2 want=$3 f=$tmp/$1.cnf
    sed "$expr" "$CNF" >"$f"
    cmp -s "$f" "$CNF" && { fail "$name: the sed expression changed nothing"; return; }
    OPENSSL_CONF=$f openssl list -providers >"$tmp/$name.list" 2>&1
    local listed=$?
    doctor "$name" "$f"
    if [ "$listed" = 0 ] && ! grep -q mlkem "$tmp/$name.list" && [ "$rc" = 1 ] &&
        has "$name" "problem: $want" &&
        grep -q '^problem: mlkem is NOT active from this configuration' "$tmp/$name.out" &&
        grep -Eq '^group:    X25519MLKEM768 +UNKNOWN to this OpenSSL$' "$tmp/$name.out" &&
        grep -Eq '^result:   [0-9]+ problems$' "$tmp/$name.out"; then
        ok "$name: openssl list -providers silent (exit 0, no mlkem); doctor exit 1: '$want'"
    else
        fail "$name: list exit $listed, doctor exit $rc, want 'problem: $want':
$(cat "$tmp/$name.out")"
    fi
}
broken sec 's/^mlkem   = mlkem_sect$/mlkem   = mlkem_sec/' \
    '[provider_sect] mlkem = mlkem_sec: there is no section [mlkem_sec] (did you mean [mlkem_sect]?)'
grep -q '^problem: OpenSSL: provider section error: section=mlkem_sec not found$' "$tmp/sec.out" &&
    ok "  and OpenSSL's own diagnostic (config diagnostics on)" || fail "sec: no OpenSSL diagnostic"
broken sectt 's/^\[mlkem_sect\]$/[mlkem_sectt]/' \
    '[provider_sect] mlkem = mlkem_sect: there is no section [mlkem_sect] (did you mean [mlkem_sectt]?)'
broken actvate 's/^activate = 1$/actvate = 1/; /^\[default_sect\]/,/^$/s/^actvate = 1$/activate = 1/' \
    '[mlkem_sect] has no activate = 1: the provider is configured but never loaded'
grep -q '^problem: \[mlkem_sect\] actvate = 1: unknown key, did you mean activate? ' "$tmp/actvate.out" &&
    ok "  and 'actvate = 1: unknown key, did you mean activate?'" || fail "actvate: no unknown-key problem"
broken nomodule 's|^module   = mlkem.so$|module   = /nonexistent/mlkem.so|' \
    '[mlkem_sect] module: /nonexistent/mlkem.so does not exist (module = /nonexistent/mlkem.so in [mlkem_sect], an absolute path)'
broken bare 's|^module   = mlkem.so$|module   = mlkem|' \
    "[mlkem_sect] module: $PROV_DIR/mlkem does not exist (module = mlkem in [mlkem_sect], looked up in \$OPENSSL_MODULES $PROV_DIR); OpenSSL adds no extension to a module line: write module = mlkem.so"
libc=$(ldd "$CHECK" | awk '$1 ~ /^libc\.so/ { print $3 }')
broken notprovider "s|^module   = mlkem.so$|module   = $libc|" \
    "[mlkem_sect] module: $libc is not an OpenSSL provider module (no OSSL_provider_init)"
head -c 200 "$CNF" >"$tmp/text.so" # text, longer than an ELF header
broken notelf "s|^module   = mlkem.so$|module   = $tmp/text.so|" \
    "[mlkem_sect] module: $tmp/text.so is not a loadable module: $tmp/text.so: invalid ELF header"

# 3. Unknown ml-kem.* keys and a bad value, with mlkem active.
sed 's/^# decoders = no$/retain_sed = yes\nml-kem = kem_sect/' "$CNF" >"$tmp/keys.cnf"
printf '[kem_sect]\nprefer_sed = no\noutput_formats = bogus\n' >>"$tmp/keys.cnf"
doctor keys "$tmp/keys.cnf"
if [ "$rc" = 1 ] && has keys "mlkem:    active from the configuration" &&
    grep -q '^problem: \[mlkem_sect\] retain_sed = yes: unknown key, did you mean retain_seed? ' "$tmp/keys.out" &&
    grep -q '^problem: \[kem_sect\] prefer_sed = no: unknown key, did you mean prefer_seed? ' "$tmp/keys.out" &&
    grep -q '^problem: mlkem: ml-kem.output_formats: unknown key format name "bogus"' "$tmp/keys.out"; then
    ok "retain_sed, ml-kem.prefer_sed (unknown keys), output_formats = bogus (the provider's config-error): exit 1"
else
    fail "keys: exit $rc: $(cat "$tmp/keys.out")"
fi

# 4. A file that cannot be read.
doctor missing "$tmp/nosuch.cnf"
[ "$rc" = 2 ] && has missing "problem: cannot read $tmp/nosuch.cnf" &&
    ok "missing file: exit 2, 'cannot read'" || fail "missing file: exit $rc: $(cat "$tmp/missing.out")"
printf 'openssl_conf = init\n[init\n' >"$tmp/syntax.cnf"
doctor syntax "$tmp/syntax.cnf"
[ "$rc" = 2 ] && grep -q "^problem: $tmp/syntax.cnf line 2: syntax error" "$tmp/syntax.out" &&
    ok "syntax error: exit 2, the line named" || fail "syntax: exit $rc: $(cat "$tmp/syntax.out")"

# 5. Usage errors name what is wrong.
"$CHECK" -bogus example.org >"$tmp/bogus.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -qx 'mlkem-check: unknown option -bogus' "$tmp/bogus.out" &&
    ok "unknown option: exit 2, 'mlkem-check: unknown option -bogus'" ||
    fail "unknown option: exit $rc: $(cat "$tmp/bogus.out")"
"$CHECK" --config a.cnf b.cnf >"$tmp/two.out" 2>&1
[ $? = 2 ] && grep -q '^usage: ' "$tmp/two.out" && ok "--config with two files: usage, exit 2" ||
    fail "--config a b: $(cat "$tmp/two.out")"

test_finish
