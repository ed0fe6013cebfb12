#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# evp_deb.sh BINARY_DIR MODULES_DIR DOC_DIR LOADABLE: run `cpack -G DEB` for
# the build tree into a temporary directory and check the package:
#   - dpkg-deb -c lists MODULES_DIR/mlkem.so and DOC_DIR/mlkem.cnf.example;
#   - the control fields name the package mlkem and depend on libssl3;
#   - unpacked, the module loads into `openssl list -providers` (skipped when
#     LOADABLE=0, i.e. sanitizer builds whose module needs the ASan runtime).
set -u
bindir="$1" moddir="$2" docdir="$3" loadable="${4:-1}"
for tool in cpack dpkg-deb; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool not found (Debian packaging tools)"
        exit 77
    fi
done
tmp="$(mktemp -d /tmp/mlkem-deb-XXXXXX)" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
check() { # check <description> <command...>
    local what="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}

if ! cpack -G DEB --config "$bindir/CPackConfig.cmake" -B "$tmp/out" \
        >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log"
    echo "FAIL: cpack -G DEB"
    exit 1
fi
deb="$(ls "$tmp"/out/*.deb 2>/dev/null | head -n1)"
if [ -z "$deb" ]; then
    cat "$tmp/cpack.log"; echo "FAIL: no .deb produced"; exit 1
fi
echo "package: $(basename "$deb")"
dpkg-deb -c "$deb" | tee "$tmp/contents"
check "module .${moddir}/mlkem.so in the package" \
    grep -Eq " \\.${moddir}/mlkem\\.so\$" "$tmp/contents"
check "example .${docdir}/mlkem.cnf.example in the package" \
    grep -Eq " \\.${docdir}/mlkem\\.cnf\\.example\$" "$tmp/contents"
check "no file outside /usr" \
    sh -c "! awk '{print \$NF}' '$tmp/contents' | grep -v '^\\./usr/' | grep -v '^\\./\$' | grep -q ."
dpkg-deb -f "$deb" Package Version Architecture Depends | tee "$tmp/control"
check "Package: mlkem" grep -qx "Package: mlkem" "$tmp/control"
check "Depends on libssl3" grep -q "^Depends:.*libssl3" "$tmp/control"
check "Architecture is the host's" \
    grep -qx "Architecture: $(dpkg --print-architecture)" "$tmp/control"

if [ "$loadable" = 1 ] && command -v openssl >/dev/null 2>&1; then
    dpkg-deb -x "$deb" "$tmp/root"
    out="$(openssl list -providers -provider-path "$tmp/root$moddir" \
             -provider mlkem 2>&1)"
    echo "$out"
    check "unpacked module loads" grep -q "status: active" <<<"$out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
