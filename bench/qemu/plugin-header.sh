#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/qemu/plugin-header.sh - fetch (once) qemu's TCG plugin API header,
# include/qemu/qemu-plugin.h, for the qemu this machine runs, and cache it
# outside the clone.
#
# Usage:
#   bench/qemu/plugin-header.sh                 ensure the cache exists
#                                               (download if needed), then
#                                               print its directory as the
#                                               last stdout line
#   bench/qemu/plugin-header.sh --print-dir     print the directory if the
#                                               cache is valid, exit 1
#                                               otherwise; never downloads
#
# Environment:
#   MLKEM_QEMU_PLUGIN_CACHE  parent of the cache (default
#                            /var/cache/mlkem/qemu-plugin); the header lands
#                            in <cache>/<Debian source version>/qemu-plugin.h
#   MLKEM_QEMU_VERSION       Debian source version of `qemu` to fetch
#                            (default: the one qemu-user is built from,
#                            from dpkg; Debian 12 has 1:7.2+dfsg-7+deb12u*)
#
# Debian ships no package with the header (qemu's build installs it only
# with --enable-plugins into a -dev package Debian does not build), so the
# source package is fetched the way scripts/openssl-peer.sh fetches
# OpenSSL's: a private deb-src list for this machine's own Debian suite,
# built from the URI of its apt source, used through private apt options
# (Dir::State::Lists in a temporary directory; the system apt
# configuration is not touched). Only the one header is extracted from the
# .orig tarball (about 90 MB to download, once). The header is the plugin
# ABI of that qemu (QEMU_PLUGIN_VERSION); a plugin built against it is
# loaded by that qemu only.
set -euo pipefail

me=qemu-plugin-header
msg() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

CACHE="${MLKEM_QEMU_PLUGIN_CACHE:-/var/cache/mlkem/qemu-plugin}"
CACHE="${CACHE%/}"
VERSION="${MLKEM_QEMU_VERSION:-}"
if [ -z "$VERSION" ]; then
    VERSION="$(dpkg-query -W -f='${source:Version}' qemu-user 2>/dev/null || true)"
    [ -n "$VERSION" ] || VERSION="$(dpkg-query -W -f='${source:Version}' qemu-user-static 2>/dev/null || true)"
    [ -n "$VERSION" ] || die "qemu-user is not installed (and MLKEM_QEMU_VERSION is not set)"
fi
DIR="$CACHE/${VERSION//[:~+]/_}"

cache_valid() { grep -q 'QEMU_PLUGIN_VERSION' "$1/qemu-plugin.h" 2>/dev/null; }

case "${1:-}" in
    --print-dir) cache_valid "$DIR" && { printf '%s\n' "$DIR"; exit 0; }; exit 1 ;;
    "") ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) die "unknown argument: $1" ;;
esac

if cache_valid "$DIR"; then printf '%s\n' "$DIR"; exit 0; fi

mkdir -p "$CACHE" || die "cannot create $CACHE"
exec 9>"$CACHE/.lock"
flock 9
if cache_valid "$DIR"; then printf '%s\n' "$DIR"; exit 0; fi

SUITE="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")"
[ -n "$SUITE" ] || die "no VERSION_CODENAME in /etc/os-release"

tmp="$(mktemp -d "$CACHE/fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The private deb-src list (scripts/lib/debsrc.sh, shared with
# scripts/openssl-peer.sh), with the -updates suite too: point releases of
# qemu (deb12uN) may be there.
. "$(dirname "$0")/../../scripts/lib/debsrc.sh"
debsrc_setup "$tmp" "$SUITE" "$SUITE" "$SUITE-updates" || die "no Debian $SUITE apt source"
APT_OPTS=("${DEBSRC_APT_OPTS[@]}")
msg "apt-get update (private $SUITE deb-src list)"
debsrc_update "$tmp" || { tail -n 20 "$tmp/update.log" >&2; die "apt-get update failed"; }

fetch() { debsrc_download "$tmp" "$1"; }
msg "fetching the qemu source $VERSION"
if ! fetch "qemu=$VERSION"; then
    # The plugin API of one upstream release is the same in every Debian
    # revision of it: take any listed version of the same upstream one.
    up="${VERSION%-*}"
    got=""
    for v in $(apt-cache "${APT_OPTS[@]}" showsrc qemu 2>/dev/null | sed -n 's/^Version: *//p' | sort -u -V -r); do
        [ "${v%-*}" = "$up" ] || continue
        msg "qemu=$VERSION not available; trying qemu=$v"
        if fetch "qemu=$v"; then got=$v; break; fi
    done
    [ -n "$got" ] || { tail -n 20 "$tmp/source.log" >&2; die "could not fetch the qemu $up source"; }
fi
orig=""
for f in "$tmp"/src/qemu_*.orig.tar.*; do
    case "$f" in *.asc) continue ;; esac
    [ -f "$f" ] && { orig=$f; break; }
done
[ -n "$orig" ] || die "no qemu .orig tarball was downloaded"
msg "extracting include/qemu/qemu-plugin.h from $(basename "$orig")"
tar -xf "$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h' || die "no qemu-plugin.h in $orig"
h="$(find "$tmp" -path '*/include/qemu/qemu-plugin.h' | head -n1)"
[ -n "$h" ] || die "no qemu-plugin.h in $orig"
mkdir -p "$DIR.tmp"
cp "$h" "$DIR.tmp/qemu-plugin.h"
printf '%s\n' "$(basename "$orig")" >"$DIR.tmp/SOURCE"
cache_valid "$DIR.tmp" || die "the extracted header has no QEMU_PLUGIN_VERSION"
rm -rf "$DIR"
mv "$DIR.tmp" "$DIR"
msg "cached $DIR/qemu-plugin.h"
printf '%s\n' "$DIR"
