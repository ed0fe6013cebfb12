#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_speed.sh: mlkem-speed (tools/mlkem_speed.c), briefly (-seconds 1),
# on the system's OpenSSL 3.0 and on OpenSSL 3.5's libcrypto:
#  - stdout starts with `openssl speed`'s version-and-options header (on
#    3.5's libcrypto: the same five lines as 3.5's own `openssl speed`),
#    then the table's header line, identical to 3.5's, and every row has
#    openssl's layout with consistent numbers (seconds per op = 1 / ops per
#    second, all > 0);
#  - 3.0: ALGORITHM@mlkem rows only, and the note that there is no built-in;
#  - 3.5: ALGORITHM@mlkem next to ALGORITHM@default for each algorithm;
#  - as openssl: "-provider mlkem -provider default -propquery
#    ?provider=mlkem" measures ours, "-provider default" the built-in;
#  - -mr: openssl's machine-readable lines (+DTP, +R15/16/17 on stderr,
#    +F9 only on stdout), in the form 3.5's `openssl speed -mr` prints;
#  - -multi 2 sums two processes; a module that cannot be found, an
#    unknown option (named, as openssl names it) are errors.
set -u
BIN=${MLKEM_BINARY_DIR:?}/tools/mlkem-speed
PROV_DIR=${MLKEM_PROVIDER_DIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-speed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
[ -x "$BIN" ] || { echo "FAIL: $BIN not built" >&2; exit 1; }
O35=$(peer_prefix 3.5)
[ -n "$O35" ] || skip "no OpenSSL 3.5 peer (scripts/openssl-peer.sh 3.5 --print-prefix finds none; run scripts/openssl-peer.sh 3.5)"
o35() { echo env LD_LIBRARY_PATH="$O35/lib"; }

# speed NAME CMD...: run, output in $tmp/NAME.{out,err}, status in $rc
speed() { local n=$1; shift; timeout 120 "$@" >"$tmp/$n.out" 2>"$tmp/$n.err"; rc=$?; }
# rows FILE: the labels of the table's rows
rows() { awk '/keygens\/s/ { t = 1; next } t && /s +[0-9.]+s +[0-9.]+s/ { print $1 }' "$1" | tr '\n' ' ' | sed 's/ $//'; }
# header FILE: the table's header line (after the five version lines)
header() { sed -n 6p "$1"; }
# version_block FILE VERSION: openssl speed's first five lines
version_block() {
    sed -n 1p "$1" | grep -q "^version: $2" && sed -n 2p "$1" | grep -q '^built on: ' &&
        sed -n 3p "$1" | grep -q '^options: bn(' && sed -n 4p "$1" | grep -q '^compiler: ' &&
        sed -n 5p "$1" | grep -q '^CPUINFO: '
}
# well_formed FILE: openssl's row layout; the seconds column is 1/rate
# (to its 6 decimals)
well_formed() {
    awk '!t { if (/keygens\/s/) t = 1; next }
         /^library:/ { exit }
         { if (NF != 7 || $2 !~ /^[0-9]\.[0-9][0-9][0-9][0-9][0-9][0-9]s$/ || $5 !~ /^[0-9]+\.[0-9]$/) bad = 1
           for (i = 0; i < 3; i++) {
               s = substr($(2 + i), 1, length($(2 + i)) - 1) + 0; r = $(5 + i) + 0
               d = s - 1 / r; if (d < 0) d = -d
               if (r <= 0 || s <= 0 || d > 5.1e-7) bad = 1 } }
         END { exit bad }' "$1"
}

# The header of OpenSSL 3.5's own `openssl speed` KEM table.
$(o35) "$O35/bin/openssl" speed -seconds 1 ML-KEM-512 >"$tmp/openssl.out" 2>/dev/null
header=$(grep 'keygens/s' "$tmp/openssl.out")
[ -n "$header" ] || { echo "FAIL: no KEM table from openssl speed" >&2; exit 1; }

# 1. OpenSSL 3.0, comparison mode.
speed s30 "$BIN" -provider-path "$PROV_DIR" -seconds 1 ML-KEM-768 X25519MLKEM768
[ "$rc" = 0 ] && version_block "$tmp/s30.out" '3\.0\.' && [ "$(header "$tmp/s30.out")" = "$header" ] &&
    ok "3.0: openssl speed's version block first, then its table header" ||
    fail "3.0: exit $rc, $(head -n 6 "$tmp/s30.out") $(cat "$tmp/s30.err")"
[ "$(rows "$tmp/s30.out")" = "ML-KEM-768@mlkem X25519MLKEM768@mlkem" ] &&
    ok "3.0: rows $(rows "$tmp/s30.out")" || fail "3.0 rows: $(rows "$tmp/s30.out")"
well_formed "$tmp/s30.out" && ok "3.0: rows in openssl's layout, seconds = 1 / rate" ||
    fail "3.0 table: $(cat "$tmp/s30.out")"
grep -q '^built-in: none' "$tmp/s30.out" && grep -q '^library: OpenSSL 3\.0' "$tmp/s30.out" &&
    ok "3.0: says there is no built-in ML-KEM" || fail "3.0 footer: $(cat "$tmp/s30.out")"
grep -q 'Doing ML-KEM-768@mlkem keygen ops for 1s: [0-9]* ML-KEM-768@mlkem KEM keygen ops in' \
    "$tmp/s30.err" && ok "3.0: progress on stderr as openssl prints it" ||
    fail "3.0 progress: $(head -n 2 "$tmp/s30.err")"
cat "$tmp/s30.out"

# 2. OpenSSL 3.5, comparison mode.
speed s35 $(o35) "$BIN" -provider-path "$PROV_DIR" -seconds 1 ML-KEM-768 X25519MLKEM768
[ "$rc" = 0 ] && [ "$(head -n 5 "$tmp/s35.out")" = "$(head -n 5 "$tmp/openssl.out")" ] &&
    [ "$(header "$tmp/s35.out")" = "$header" ] && well_formed "$tmp/s35.out" &&
    ok "3.5: the same five version lines as 3.5's openssl speed, its table header and layout" ||
    fail "3.5: exit $rc $(cat "$tmp/s35.out" "$tmp/s35.err") openssl: $(head -n 5 "$tmp/openssl.out")"
want="ML-KEM-768@mlkem ML-KEM-768@default X25519MLKEM768@mlkem X25519MLKEM768@default"
[ "$(rows "$tmp/s35.out")" = "$want" ] && ok "3.5: side by side: $want" ||
    fail "3.5 rows: $(rows "$tmp/s35.out")"
grep -q '^library: OpenSSL 3\.5' "$tmp/s35.out" && ! grep -q '^built-in: none' "$tmp/s35.out" &&
    ok "3.5: running on 3.5, built-in measured" || fail "3.5 footer: $(cat "$tmp/s35.out")"
cat "$tmp/s35.out"

# 3. As openssl speed: the providers and query given.
speed ours $(o35) "$BIN" -provider-path "$PROV_DIR" -provider mlkem -provider default \
    -propquery '?provider=mlkem' -seconds 1 ML-KEM-1024
[ "$rc" = 0 ] && [ "$(rows "$tmp/ours.out")" = "ML-KEM-1024@mlkem" ] &&
    ok "-provider mlkem -provider default -propquery ?provider=mlkem: ML-KEM-1024@mlkem" ||
    fail "propquery mlkem: exit $rc: $(rows "$tmp/ours.out") $(cat "$tmp/ours.err")"
speed builtin $(o35) "$BIN" -provider default -seconds 1 ML-KEM-1024
[ "$rc" = 0 ] && [ "$(rows "$tmp/builtin.out")" = "ML-KEM-1024@default" ] &&
    ok "-provider default: ML-KEM-1024@default" ||
    fail "-provider default: exit $rc: $(rows "$tmp/builtin.out") $(cat "$tmp/builtin.err")"

# 4. -multi 2
speed multi "$BIN" -provider-path "$PROV_DIR" -seconds 1 -multi 2 ML-KEM-512
[ "$rc" = 0 ] && [ "$(rows "$tmp/multi.out")" = "ML-KEM-512@mlkem" ] && well_formed "$tmp/multi.out" &&
    grep -q '^multi: 2 processes' "$tmp/multi.out" &&
    [ "$(grep -c '^child [01]: ' "$tmp/multi.err")" = 6 ] &&
    ok "-multi 2: two children, 3 results each, summed" ||
    fail "-multi 2: exit $rc: $(cat "$tmp/multi.out" "$tmp/multi.err")"

# 5. -mr, against 3.5's own -mr output.
$(o35) "$O35/bin/openssl" speed -mr -seconds 1 ML-KEM-512 >"$tmp/openssl-mr.out" 2>"$tmp/openssl-mr.err"
speed mr "$BIN" -provider-path "$PROV_DIR" -seconds 1 -mr ML-KEM-512 X25519MLKEM768
f9='^\+F9:[0-9]+:[0-9]+\.[0-9]{6}:[0-9]+\.[0-9]{6}:[0-9]+\.[0-9]{6}$'
if [ "$rc" = 0 ] && grep -Eq "$f9" "$tmp/openssl-mr.out" &&
    [ "$(grep -Ec "$f9" "$tmp/mr.out")" = 2 ] && [ "$(wc -l <"$tmp/mr.out")" = 2 ] &&
    grep -q '^+F9:0:' "$tmp/mr.out" && grep -q '^+F9:1:' "$tmp/mr.out" &&
    grep -Eq '^\+DTP:ML-KEM-512:keygen:1$' "$tmp/openssl-mr.err" &&
    grep -Eq '^\+DTP:ML-KEM-512@mlkem:keygen:1$' "$tmp/mr.err" &&
    grep -Eq '^\+R15:[0-9]+:ML-KEM-512:[0-9]+\.[0-9]{2}$' "$tmp/openssl-mr.err" &&
    grep -Eq '^\+R15:[0-9]+:ML-KEM-512@mlkem:[0-9]+\.[0-9]{2}$' "$tmp/mr.err" &&
    grep -Eq '^\+R17:[0-9]+:X25519MLKEM768@mlkem:[0-9]+\.[0-9]{2}$' "$tmp/mr.err" &&
    ! grep -q '^Doing' "$tmp/mr.err"; then
    ok "-mr: +F9 lines only on stdout, +DTP / +R15-17 on stderr, as 3.5's openssl speed -mr"
else
    fail "-mr: exit $rc: $(cat "$tmp/mr.out" "$tmp/mr.err") openssl: $(cat "$tmp/openssl-mr.out")"
fi

# 6. Errors.
$(o35) "$O35/bin/openssl" speed -bogus >/dev/null 2>"$tmp/openssl-bogus.err"
speed bogus "$BIN" -bogus
[ "$rc" = 1 ] && [ "$(sed 's/^mlkem-speed:/speed:/' "$tmp/bogus.err")" = "$(cat "$tmp/openssl-bogus.err")" ] &&
    ok "unknown option: '$(head -n 1 "$tmp/bogus.err")', as openssl speed says it" ||
    fail "unknown option: exit $rc: $(cat "$tmp/bogus.err") openssl: $(cat "$tmp/openssl-bogus.err")"
speed noval "$BIN" -seconds
[ "$rc" = 1 ] && grep -qx 'mlkem-speed: Option -seconds needs a value' "$tmp/noval.err" &&
    ok "-seconds without a value: named" || fail "-seconds: exit $rc: $(cat "$tmp/noval.err")"
speed nomod "$BIN" -provider-path /nonexistent -seconds 1 ML-KEM-512
[ "$rc" = 1 ] && grep -q "cannot load the provider 'mlkem'" "$tmp/nomod.err" &&
    ok "no mlkem.so: exit 1, says so" || fail "no module: exit $rc: $(cat "$tmp/nomod.err")"
speed noalg "$BIN" -provider-path "$PROV_DIR" -seconds 1 ML-KEM-999
[ "$rc" = 1 ] && grep -q 'no loaded provider implements ML-KEM-999' "$tmp/noalg.err" &&
    ok "unknown algorithm: exit 1" || fail "unknown algorithm: exit $rc: $(cat "$tmp/noalg.err")"

test_finish
