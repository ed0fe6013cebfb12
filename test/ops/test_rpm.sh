#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_rpm.sh SOURCE_DIR [LOADABLE]: the RPM for RHEL 9 / Fedora, as the
# package-rpm preset builds it (a build tree of its own in a temporary
# directory: module and tools only).
#  - rpm -qlp: the module in /usr/lib64/ossl-modules, mlkem-check and
#    mlkem-speed in /usr/bin, openssl-pq.cnf and the server recipes in
#    /usr/share/doc/mlkem/examples (byte for byte examples/tls/), the README
#    and the documents it links to; nothing under /etc, no %config file, and
#    the shared directories (/usr/lib64/ossl-modules) not owned;
#  - rpm -qp --requires: OpenSSL 3's libcrypto (libcrypto.so.3()(64bit) and
#    its OPENSSL_3.0.0 symbol version), and no glibc symbol version newer
#    than RHEL 9's 2.34;
#  - the %preun script is packaging/prerm;
#  - rpmlint: no error but no-signature, and every warning is one
#    docs/packaging.md lists with its reason;
#  - LOADABLE=1: the unpacked openssl-pq.cnf loads the unpacked module.
set -u
src=${1:-${MLKEM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
loadable=${2:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-rpm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
for tool in cmake cpack rpm rpmbuild rpm2cpio cpio; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found (scripts/deps.sh --test: rpm)" >&2; exit 1; }
done
doc=/usr/share/doc/mlkem
recipes="openssl-pq.cnf nginx.conf apache2.conf haproxy.cfg stunnel.conf curl.sh"

b=$tmp/b
if ! { cmake -S "$src" --preset package-rpm -B "$b" && cmake --build "$b" -j2 &&
       cpack -G RPM --config "$b/CPackConfig.cmake" -B "$tmp/out"; } >"$tmp/build.log" 2>&1; then
    tail -n 40 "$tmp/build.log"; echo "FAIL: the package-rpm build" >&2; exit 1
fi
rpmf=$(ls "$tmp"/out/*.rpm 2>/dev/null | head -n 1)
[ -n "$rpmf" ] || { tail -n 20 "$tmp/build.log"; echo "FAIL: no .rpm" >&2; exit 1; }
ok "built $(basename "$rpmf")"

rpm -qlp "$rpmf" >"$tmp/list" 2>/dev/null
missing=""
for f in /usr/lib64/ossl-modules/mlkem.so /usr/bin/mlkem-check /usr/bin/mlkem-speed \
         $doc/README.md $doc/docs/tls.md $doc/docs/packaging.md $doc/changelog.gz; do
    grep -qx "$f" "$tmp/list" || missing="$missing $f"
done
for f in $recipes; do grep -qx "$doc/examples/$f" "$tmp/list" || missing="$missing $doc/examples/$f"; done
[ -z "$missing" ] && ok "rpm -qlp: the module in /usr/lib64/ossl-modules, the programs, the recipes and docs" ||
    fail "missing from the .rpm:$missing"
grep -q '^/etc' "$tmp/list" && fail "the .rpm ships files under /etc" ||
    ok "nothing under /etc"
for d in /usr/lib64/ossl-modules /usr/lib64 /usr/share/doc /usr/bin; do
    grep -qx "$d" "$tmp/list" && fail "the .rpm owns the shared directory $d"
done
[ -z "$(rpm -qcp "$rpmf" 2>/dev/null)" ] && ok "no file marked %config" ||
    fail "%config files: $(rpm -qcp "$rpmf")"

rpm -qp --requires "$rpmf" >"$tmp/req" 2>/dev/null
if grep -qx 'libcrypto.so.3()(64bit)' "$tmp/req" &&
    grep -qx 'libcrypto.so.3(OPENSSL_3.0.0)(64bit)' "$tmp/req"; then
    ok "requires OpenSSL 3's libcrypto: libcrypto.so.3()(64bit), libcrypto.so.3(OPENSSL_3.0.0)(64bit)"
else
    fail "requires: $(tr '\n' ' ' <"$tmp/req")"
fi
newest=$(sed -n 's/^libc\.so\.6(GLIBC_\([0-9.]*\))(64bit)$/\1/p' "$tmp/req" | sort -V | tail -n 1)
if [ -n "$newest" ] && [ "$(printf '%s\n2.34\n' "$newest" | sort -V | tail -n 1)" = 2.34 ]; then
    ok "newest glibc symbol version GLIBC_$newest (RHEL 9 has 2.34)"
else
    fail "glibc symbol versions up to '${newest:-none}', newer than RHEL 9's 2.34"
fi
grep -q '^config(' "$tmp/req" && fail "config() requirement: a file is marked %config"

rpm -qp --scripts "$rpmf" 2>/dev/null >"$tmp/scripts"
grep -q '^preuninstall scriptlet' "$tmp/scripts" && grep -q 'mlkem.so is being removed while' "$tmp/scripts" &&
    ok "%preun is packaging/prerm" || fail "scripts: $(head -n 5 "$tmp/scripts")"

mkdir -p "$tmp/x"
(cd "$tmp/x" && rpm2cpio "$rpmf" | cpio -idm --quiet) 2>"$tmp/cpio.log" || fail "rpm2cpio: $(cat "$tmp/cpio.log")"
same=1
for f in $recipes; do
    cmp -s "$src/examples/tls/$f" "$tmp/x$doc/examples/$f" || { same=0; fail "$doc/examples/$f differs from examples/tls/$f"; }
done
[ "$same" = 1 ] && ok "the packaged recipes are examples/tls/ byte for byte"
if [ "$loadable" = 1 ]; then
    out=$(OPENSSL_CONF="$tmp/x$doc/examples/openssl-pq.cnf" OPENSSL_MODULES="$tmp/x/usr/lib64/ossl-modules" \
          openssl list -providers 2>&1)
    grep -A3 '^  mlkem' <<<"$out" | grep -q 'status: active' &&
        ok "the packaged openssl-pq.cnf loads the packaged module" || fail "packaged cnf: $out"
fi

# rpmlint: its findings against docs/packaging.md's table.
if command -v rpmlint >/dev/null; then
    rpmlint "$rpmf" >"$tmp/rpmlint" 2>&1
    errors=$(sed -n 's/^[^ ]*: E: \([^ ]*\).*/\1/p' "$tmp/rpmlint" | sort -u | grep -vx 'no-signature')
    [ -z "$errors" ] && ok "rpmlint: no error but no-signature" || fail "rpmlint errors: $errors"
    table=$(sed -n '/^`rpmlint` on the `.rpm`/,/^The RPM requires/p' "$src/docs/packaging.md")
    unlisted=""
    for t in $(sed -n 's/^[^ ]*: [WE]: \([^ ]*\).*/\1/p' "$tmp/rpmlint" | sort -u); do
        grep -q "\`$t[\` ]" <<<"$table" || unlisted="$unlisted $t"
    done
    [ -z "$unlisted" ] && ok "every rpmlint finding is listed in docs/packaging.md: $(sed -n 's/^[^ ]*: \([WE]: [^ ]*\).*/\1/p' "$tmp/rpmlint" | sort -u | tr '\n' ',')" ||
        fail "rpmlint findings docs/packaging.md does not list:$unlisted ($(cat "$tmp/rpmlint"))"
else
    fail "rpmlint not found (scripts/deps.sh --test)"
fi

test_finish
