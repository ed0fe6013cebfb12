#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_package.sh BINARY_DIR MODULES_DIR LOADABLE: what an administrator
# installs, and how it goes away again.
#
# The .deb (cpack -G DEB, into a temporary directory):
#  - holds mlkem.so, /usr/bin/mlkem-check, mlkem-speed and mlkem-pkeyutl,
#    their man pages and mlkem(7),
#    /usr/share/doc/mlkem/{copyright,README.md,mlkem.cnf.example} and the
#    TLS recipes in /usr/share/doc/mlkem/examples/, byte for byte the files
#    of examples/tls/ (curl.sh executable), and nothing under /etc;
#  - its copyright file is Debian's machine-readable format: the Format
#    line, "Files: *" under Apache-2.0, a stand-alone License paragraph for
#    every licence named without its text;
#  - `dpkg --root` installs it into an empty root (no change to this
#    machine), `dpkg -L` lists those files, `dpkg -r mlkem` removes every
#    one of them;
#  - unpacked (LOADABLE=1, i.e. not a sanitizer build): the package's own
#    openssl-pq.cnf loads the package's module, and its mlkem-speed runs;
#  - its binaries are stripped; its changelog.gz is a Debian changelog of
#    the package's version, compressed without a time stamp; every relative
#    link of the packaged README.md and docs/*.md leads to a packaged file;
#  - lintian: no error, and every warning is one docs/packaging.md lists
#    with its reason;
#  - prerm: removing the package while the (empty root's) openssl.cnf
#    includes openssl-pq.cnf and an nginx file names the group prints both,
#    with the sed command, and that command removes exactly the .include
#    line; the administrator's files stay.
# `cmake --install` into DESTDIR, then scripts/uninstall.cmake on its
# manifest: every file removed, our empty directories too; the build tree
# has an `uninstall` target.
set -u
bindir=$1 moddir=$2 loadable=${3:-1}
src=${MLKEM_SOURCE_DIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-pkg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
for tool in cpack dpkg-deb dpkg; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found (dpkg-dev)" >&2; exit 1; }
done
doc=/usr/share/doc/mlkem
recipes="openssl-pq.cnf nginx.conf apache2.conf haproxy.cfg stunnel.conf curl.sh"

# ---- the .deb ------------------------------------------------------------------
if ! cpack -G DEB --config "$bindir/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log"; echo "FAIL: cpack -G DEB" >&2; exit 1
fi
deb=$(ls "$tmp"/out/*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; echo "FAIL: no .deb" >&2; exit 1; }
dpkg-deb -c "$deb" | awk '{ print $1, $NF }' | sed 's| \./| /|' >"$tmp/contents"
has() { grep -q " ${1}\$" "$tmp/contents"; }
missing=""
for f in "$moddir/mlkem.so" /usr/bin/mlkem-check /usr/bin/mlkem-speed /usr/bin/mlkem-pkeyutl \
         /usr/share/man/man1/mlkem-check.1.gz /usr/share/man/man1/mlkem-speed.1.gz \
         /usr/share/man/man1/mlkem-pkeyutl.1.gz /usr/share/man/man7/mlkem.7.gz \
         "$doc/copyright" "$doc/README.md" "$doc/mlkem.cnf.example"; do
    has "$f" || missing="$missing $f"
done
for f in $recipes; do has "$doc/examples/$f" || missing="$missing $doc/examples/$f"; done
[ -z "$missing" ] && ok "the .deb holds the module, the programs, their man pages, copyright, README and the recipes" ||
    fail "missing from the .deb:$missing"
grep -q "^-rwxr-xr-x $doc/examples/curl.sh\$" "$tmp/contents" &&
    grep -q '^-rwxr-xr-x /usr/bin/mlkem-check$' "$tmp/contents" &&
    ok "curl.sh and the programs are executable" || fail "modes: $(grep 'curl.sh\|bin/' "$tmp/contents")"
! grep -q ' /etc' "$tmp/contents" && ok "nothing under /etc: no configuration is active until the admin adds it" ||
    fail "the .deb ships files under /etc"

dpkg-deb -x "$deb" "$tmp/x"
same=1
for f in $recipes; do
    cmp -s "$src/examples/tls/$f" "$tmp/x$doc/examples/$f" || { same=0; fail "$doc/examples/$f differs from examples/tls/$f"; }
done
[ "$same" = 1 ] && ok "the packaged recipes are examples/tls/ byte for byte"

# copyright: machine-readable format 1.0
c=$tmp/x$doc/copyright
if [ "$(head -n 1 "$c")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] &&
    awk '/^Files: \*$/ { f = 1; next } f && /^License:/ { print; exit }' "$c" | grep -qx 'License: Apache-2.0'; then
    ok "copyright: DEP-5 Format line, Files: * under Apache-2.0"
else
    fail "copyright: $(head -n 12 "$c")"
fi
# Every "License: X" without text in a Files paragraph needs a stand-alone
# "License: X" paragraph with the text.
bad=$(awk '
    BEGIN { RS = ""; FS = "\n" }
    /^Files:/ { for (i = 1; i <= NF; i++) if ($i ~ /^License: /) {
                    name = substr($i, 10); if (i == NF || $(i + 1) !~ /^ /) need[name] = 1 } }
    /^License: / { name = substr($1, 10); if (NF > 1) have[name] = 1 }
    END { for (n in need) if (!(n in have)) print n }' "$c")
[ -z "$bad" ] && ok "copyright: every licence named has its text" || fail "copyright: no text for: $bad"

# dpkg -i / -L / -r in an empty root
r=$tmp/root
mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
touch "$r/var/lib/dpkg/status" "$r/var/lib/dpkg/available"
# Maintainer scripts run on this machine's /bin/sh with DPKG_ROOT=$r
# (the empty root has no shell to chroot into).
dpkgr() { dpkg --root="$r" --force-not-root --force-depends --force-script-chrootless \
               --log=/dev/null "$@"; }
if dpkgr -i "$deb" >"$tmp/dpkg-i.log" 2>&1 && [ -f "$r$moddir/mlkem.so" ] && [ -x "$r/usr/bin/mlkem-check" ]; then
    ok "dpkg -i (into an empty --root) installs the module and the programs"
else
    fail "dpkg -i: $(cat "$tmp/dpkg-i.log")"
fi
listed=$(dpkgr -L mlkem 2>/dev/null | grep -c "^$doc/examples/\|^/usr/bin/mlkem-\|/mlkem.so$")
[ "$listed" -eq 10 ] && ok "dpkg -L mlkem lists the 10 files of interest" || fail "dpkg -L mlkem: $listed of 10"
# The administrator's configuration, as docs/tls.md's "Enable it" leaves it.
mkdir -p "$r/etc/ssl" "$r/etc/nginx/conf.d"
printf 'openssl_conf = openssl_init\n[openssl_init]\n' >"$r/etc/ssl/openssl.cnf.orig"
cp "$r/etc/ssl/openssl.cnf.orig" "$r/etc/ssl/openssl.cnf"
echo '.include /etc/ssl/openssl-pq.cnf' >>"$r/etc/ssl/openssl.cnf"
cp "$src/examples/tls/openssl-pq.cnf" "$r/etc/ssl/openssl-pq.cnf"
cp "$src/examples/tls/nginx.conf" "$r/etc/nginx/conf.d/pq-tls.conf"
if dpkgr -r mlkem >"$tmp/dpkg-r.log" 2>&1 &&
    [ -z "$(find "$r" -path "$r/var" -prune -o -path "$r/etc" -prune -o -type f -print)" ]; then
    ok "dpkg -r mlkem leaves no file of its own behind"
else
    fail "dpkg -r: $(cat "$tmp/dpkg-r.log"); left: $(find "$r" -path "$r/var" -prune -o -type f -print)"
fi
if grep -q '^mlkem: warning: mlkem.so is being removed while the system still uses it' "$tmp/dpkg-r.log" &&
    grep -q '^mlkem:   /etc/ssl/openssl-pq.cnf loads the module' "$tmp/dpkg-r.log" &&
    grep -q '^mlkem:   /etc/nginx/conf.d/pq-tls.conf names an ML-KEM group' "$tmp/dpkg-r.log"; then
    ok "prerm names openssl-pq.cnf and the nginx file that still use the module"
else
    fail "prerm messages: $(cat "$tmp/dpkg-r.log")"
fi
cmd=$(sed -n 's/^mlkem:       \(sed -i .*\)$/\1/p' "$tmp/dpkg-r.log")
if [ -n "$cmd" ] && (cd "$r" && eval "${cmd% /etc/ssl/openssl.cnf} $r/etc/ssl/openssl.cnf") &&
    cmp -s "$r/etc/ssl/openssl.cnf" "$r/etc/ssl/openssl.cnf.orig"; then
    ok "its sed command removes the .include line and nothing else: $cmd"
else
    fail "prerm's sed command '${cmd:-none}': $(diff "$r/etc/ssl/openssl.cnf.orig" "$r/etc/ssl/openssl.cnf")"
fi
grep -qF "${cmd:-no command}" "$src/docs/tls.md" && ok "docs/tls.md gives the same command" ||
    fail "docs/tls.md, \"Uninstalling\", does not show prerm's command"
[ -f "$r/etc/ssl/openssl-pq.cnf" ] && [ -f "$r/etc/nginx/conf.d/pq-tls.conf" ] &&
    ok "the administrator's files stay" || fail "prerm or dpkg -r removed the administrator's files"

if [ "$loadable" = 1 ]; then
    out=$(OPENSSL_CONF="$tmp/x$doc/examples/openssl-pq.cnf" OPENSSL_MODULES="$tmp/x$moddir" \
          openssl list -providers 2>&1)
    grep -A3 '^  mlkem' <<<"$out" | grep -q 'status: active' &&
        ok "the packaged openssl-pq.cnf loads the packaged module" || fail "packaged cnf: $out"
    if out=$(timeout 60 "$tmp/x/usr/bin/mlkem-speed" -provider-path "$tmp/x$moddir" -seconds 1 \
             ML-KEM-768 2>/dev/null) && grep -q '^ *ML-KEM-768@mlkem ' <<<"$out"; then
        ok "the packaged mlkem-speed runs: $(grep '@mlkem' <<<"$out" | tr -s ' ')"
    else
        fail "packaged mlkem-speed: $out"
    fi
fi

# stripped binaries
unstripped=""
for f in "$tmp/x/usr/bin/mlkem-check" "$tmp/x/usr/bin/mlkem-speed" "$tmp/x$moddir/mlkem.so"; do
    sections=$(readelf -S "$f" 2>/dev/null) && ! grep -qE '\.symtab|\.debug_' <<<"$sections" ||
        unstripped="$unstripped ${f#"$tmp/x"}"
done
[ -z "$unstripped" ] && ok "the binaries are stripped (no .symtab, no .debug_*)" ||
    fail "not stripped (or unreadable):$unstripped"
# changelog
cl=$tmp/x$doc/changelog.gz
if [ -f "$cl" ] && gzip -t "$cl" && [ "$(od -An -tu4 -j4 -N4 "$cl" | tr -d ' ')" = 0 ] &&
    v=$(zcat "$cl" | dpkg-parsechangelog -l- -SVersion 2>/dev/null) &&
    [ "$v" = "$(dpkg-deb -f "$deb" Version)" ]; then
    ok "changelog.gz: a Debian changelog of version $v, gzip without a time stamp"
else
    fail "changelog.gz: missing, not gzip -n, or its version (${v:-?}) is not the package's"
fi
# every relative link of the packaged documents
bad=$(cd "$tmp/x$doc" && for md in README.md SECURITY.md docs/*.md; do
    grep -o '\]([^)]*)' "$md" | sed 's/^](//; s/)$//; s/#.*//' | grep -v '^[a-z]*:' | grep . |
    while read -r l; do [ -e "$(dirname "$md")/$l" ] || echo "$md -> $l"; done
done)
[ -z "$bad" ] && ok "every relative link in the packaged README.md and docs/ leads to a packaged file" ||
    fail "broken links in /usr/share/doc/mlkem: $bad"
# lintian: no error; every warning listed in docs/packaging.md
if command -v lintian >/dev/null; then
    lintian --no-tag-display-limit "$deb" >"$tmp/lintian" 2>&1
    errors=$(grep '^E: ' "$tmp/lintian")
    [ -z "$errors" ] && ok "lintian: no error" || fail "lintian errors: $errors"
    table=$(sed -n '/^`lintian` on the `.deb`/,/^`rpmlint` on/p' "$src/docs/packaging.md")
    unlisted=""
    for t in $(sed -n 's/^W: [^ ]*: \([^ ]*\).*/\1/p' "$tmp/lintian" | sort -u); do
        grep -q "\`$t[\` ]" <<<"$table" || unlisted="$unlisted $t"
    done
    [ -z "$unlisted" ] && ok "lintian warnings, each listed in docs/packaging.md: $(sed -n 's/^W: [^ ]*: \([^ ]*\).*/\1/p' "$tmp/lintian" | sort -u | tr '\n' ' ')" ||
        fail "lintian warnings docs/packaging.md does not list:$unlisted"
else
    fail "lintian not found (scripts/deps.sh --test)"
fi

# ---- cmake --install and uninstall --------------------------------------------
d=$tmp/destdir
if DESTDIR=$d cmake --install "$bindir" --component runtime >"$tmp/install.log" 2>&1; then
    n=$(find "$d" -type f | wc -l)
    [ "$(find "$d" -type f | sed "s|^$d||" | sort)" = "$(sort "$bindir/install_manifest_runtime.txt")" ] &&
        [ "$n" -ge 12 ] && [ -f "$d$moddir/mlkem.so" ] && [ -x "$d/usr/local/bin/mlkem-check" ] &&
        ok "cmake --install (DESTDIR) installs the $n files its manifest lists" ||
        fail "cmake --install: $n files: $(find "$d" -type f)"
else
    fail "cmake --install: $(cat "$tmp/install.log")"
fi
if DESTDIR=$d cmake -DMANIFEST="$bindir/install_manifest_runtime.txt" \
        -P "$src/scripts/uninstall.cmake" >"$tmp/uninstall.log" 2>&1 &&
    [ -z "$(find "$d" -type f)" ] && [ -z "$(find "$d" -name mlkem -type d)" ]; then
    ok "uninstall.cmake removes every installed file and our empty directories"
else
    fail "uninstall: $(cat "$tmp/uninstall.log"); left: $(find "$d" -type f -o -name mlkem)"
fi
if DESTDIR=$d cmake -DMANIFEST="$bindir/install_manifest_runtime.txt" \
        -P "$src/scripts/uninstall.cmake" >"$tmp/uninstall2.log" 2>&1 &&
    grep -q 'already absent' "$tmp/uninstall2.log"; then
    ok "a second uninstall reports the files already absent"
else
    fail "second uninstall: $(cat "$tmp/uninstall2.log")"
fi
cmake --build "$bindir" --target help 2>/dev/null | grep -q '\buninstall\b' &&
    ok "the build tree has an uninstall target" || fail "no uninstall target"

test_finish
