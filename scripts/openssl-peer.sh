#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/openssl-peer.sh - build (once) and cache an OpenSSL peer release
# outside the clone: 3.5 (Debian 13), 3.6 (sid) or 4.0 (experimental).
#
# Usage:
#   scripts/openssl-peer.sh <3.5|3.6|4.0>                ensure the cache exists
#                                       (build if needed), then print the
#                                       prefix as the last stdout line
#   scripts/openssl-peer.sh <3.5|3.6|4.0> --print-prefix print the prefix if the
#                                       cache is valid, exit 1 otherwise;
#                                       never builds
#
# Environment (NN = 35, 36 or 40):
#   MLKEM_OPENSSLNN_PREFIX   install prefix of the cache
#                            (default: /var/cache/mlkem/openssl-<X.Y>)
#   MLKEM_OPENSSLNN_VERSION  Debian source version of `openssl` to fetch
#                            (defaults below; if that exact version is not
#                            downloadable, the newest one of the suite that is)
#   MLKEM_OPENSSL_BUILDDIR   parent of the temporary build tree
#                            (default: /var/cache/mlkem/build; the older name
#                            MLKEM_OPENSSL35_BUILDDIR is honoured too)
#
#   release  Debian suite  pinned source version  library
#   3.5      trixie        3.5.7-1~deb13u2        libcrypto.so.3
#   3.6      sid           3.6.3-1                libcrypto.so.3
#   4.0      experimental  4.0.2-1                libcrypto.so.4
#
# Use the result with:
#   PREFIX=$(scripts/openssl-peer.sh 4.0 | tail -n1)
#   LD_LIBRARY_PATH=$PREFIX/lib $PREFIX/bin/openssl version
#
# The source comes from Debian's own archive: a private deb-src list for the
# release's suite is generated from the URI of this machine's Debian apt
# source and used through private apt options (the system apt configuration
# is not touched). Only the upstream .orig tarball is extracted; Debian
# patches are not applied. The build is upstream's
#   Configure --prefix=<prefix> --libdir=lib shared no-tests no-docs
# Progress goes to stderr; the build log is kept at <prefix>.build.log.
# Concurrent runs for the same prefix wait for each other (flock on
# <prefix>.lock).
set -euo pipefail

me=openssl-peer
msg() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    3.5) SUITE=trixie;       PIN=3.5.7-1~deb13u2 ;;
    3.6) SUITE=sid;          PIN=3.6.3-1 ;;
    4.0) SUITE=experimental; PIN=4.0.2-1 ;;
    "") usage >&2; die "which release? 3.5, 3.6 or 4.0" ;;
    *) die "unknown release '$1' (3.5, 3.6 or 4.0)" ;;
esac
REL=$1
shift
me="openssl-peer $REL"
NN=${REL/./}
pvar="MLKEM_OPENSSL${NN}_PREFIX"
vvar="MLKEM_OPENSSL${NN}_VERSION"
PREFIX="${!pvar:-/var/cache/mlkem/openssl-$REL}"
PREFIX="${PREFIX%/}"
VERSION="${!vvar:-$PIN}"
BUILDROOT="${MLKEM_OPENSSL_BUILDDIR:-${MLKEM_OPENSSL35_BUILDDIR:-/var/cache/mlkem/build}}"
LOG="$PREFIX.build.log"

# True if $1 holds a working OpenSSL $REL.x installation.
cache_valid() {
    local p="$1" v
    [ -x "$p/bin/openssl" ] || return 1
    v="$(LD_LIBRARY_PATH="$p/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$p/bin/openssl" version 2>/dev/null)" || return 1
    case "$v" in
        "OpenSSL $REL."*) return 0 ;;
        *) return 1 ;;
    esac
}

case "${1:-}" in
    --print-prefix)
        if cache_valid "$PREFIX"; then
            printf '%s\n' "$PREFIX"
            exit 0
        fi
        exit 1
        ;;
    "") ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument: $1 (use --print-prefix or no argument)" ;;
esac

# Fast path.
if cache_valid "$PREFIX"; then
    printf '%s\n' "$PREFIX"
    exit 0
fi

# ---------------------------------------------------------------------------
# Slow path: build.
# ---------------------------------------------------------------------------
SECONDS=0
[ "$(id -u)" -eq 0 ] || msg "warning: not running as root; apt-get install may fail"

mkdir -p "$(dirname "$PREFIX")" "$BUILDROOT" || die "cannot create $(dirname "$PREFIX") / $BUILDROOT"

# Serialize concurrent builds of the same prefix.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$PREFIX.lock"
    if ! flock -n 9; then
        msg "another build of $PREFIX is running; waiting for it"
        flock 9
    fi
    if cache_valid "$PREFIX"; then
        printf '%s\n' "$PREFIX"
        exit 0
    fi
fi

# --- build prerequisites ---------------------------------------------------
missing=()
command -v gcc  >/dev/null 2>&1 || missing+=(build-essential)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v perl >/dev/null 2>&1 || missing+=(perl)
command -v tar  >/dev/null 2>&1 || missing+=(tar)
# OpenSSL's Configure needs these core perl modules (perl-modules on Debian).
if command -v perl >/dev/null 2>&1 && \
   ! perl -MFile::Compare -MIPC::Cmd -MPod::Usage -e1 >/dev/null 2>&1; then
    missing+=(perl)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    msg "installing build prerequisites: build-essential perl"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -qq update >/dev/null 2>&1 || msg "warning: apt-get update failed"
    apt-get -qq install -y --no-install-recommends build-essential perl >/dev/null \
        || die "could not install build-essential perl"
fi

tmp="$(mktemp -d "$BUILDROOT/openssl$NN.XXXXXX")" || die "mktemp failed under $BUILDROOT"
cleanup() { rm -rf "$tmp" "$PREFIX.tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# --- private apt configuration for the suite's sources ----------------------
# Find the URI (and keyring) of the machine's main Debian source: the entry
# whose suites include bookworm and which is not the -security archive.
find_debian_uri() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk '
            function flush() {
                if (uris != "" && suites ~ /(^|[ \t])bookworm([ \t]|$)/ &&
                    uris !~ /security/ && suites !~ /security/ &&
                    enabled !~ /^[Nn]o/) {
                    split(uris, u, /[ \t]+/)
                    print u[1] "\t" signed
                    found = 1; exit
                }
                uris = ""; suites = ""; signed = ""; enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "uris:"      { sub(/^[^:]*:[ \t]*/, ""); uris = $0 }
            tolower($1) == "suites:"    { sub(/^[^:]*:[ \t]*/, ""); suites = $0 }
            tolower($1) == "signed-by:" { sub(/^[^:]*:[ \t]*/, ""); signed = $0 }
            tolower($1) == "enabled:"   { sub(/^[^:]*:[ \t]*/, ""); enabled = $0 }
            END { if (!found) flush() }
        ' "$f" | head -n1
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        # deb [opts] URI suite components...
        awk '
            /^[ \t]*(deb|deb-src)[ \t]/ {
                line = $0; sub(/^[ \t]*deb(-src)?[ \t]+/, "", line)
                opts = ""
                if (line ~ /^\[/) {
                    opts = line; sub(/\].*/, "", opts); sub(/^\[/, "", opts)
                    sub(/^\[[^]]*\][ \t]*/, "", line)
                }
                n = split(line, a, /[ \t]+/)
                if (n >= 2 && a[2] == "bookworm" && a[1] !~ /security/) {
                    signed = ""
                    if (match(opts, /signed-by=[^ \t]+/))
                        signed = substr(opts, RSTART + 10, RLENGTH - 10)
                    print a[1] "\t" signed; exit
                }
            }
        ' "$f" | head -n1
    done
}

entry="$(find_debian_uri | head -n1)"
[ -n "$entry" ] || die "could not find a Debian bookworm apt source in /etc/apt/sources.list{,.d}"
URI="${entry%%$'\t'*}"
KEYRING="${entry#*$'\t'}"
# Signed-By may hold an inline key block; only honour a file path.
case "$KEYRING" in /*) [ -r "$KEYRING" ] || KEYRING="" ;; *) KEYRING="" ;; esac
[ -n "$KEYRING" ] || { [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] \
    && KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg; }
msg "using Debian archive $URI, suite $SUITE (keyring: ${KEYRING:-apt default})"

mkdir -p "$tmp/lists/partial" "$tmp/src"
if [ -n "$KEYRING" ]; then
    printf 'deb-src [signed-by=%s] %s %s main\n' "$KEYRING" "$URI" "$SUITE" >"$tmp/peer.list"
else
    printf 'deb-src %s %s main\n' "$URI" "$SUITE" >"$tmp/peer.list"
fi

APT_OPTS=(
    -o "Dir::Etc::SourceList=$tmp/peer.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$tmp/lists"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "APT::Get::List-Cleanup=false"
    -o "APT::Sandbox::User=root"
)

msg "apt-get update (private $SUITE deb-src list)"
apt-get "${APT_OPTS[@]}" -q update >"$tmp/apt-update.log" 2>&1 || {
    tail -n 20 "$tmp/apt-update.log" >&2
    die "apt-get update for $SUITE sources failed"
}

fetch_source() {  # $1: "openssl" or "openssl=VERSION"
    rm -f "$tmp/src"/* 2>/dev/null || true
    (cd "$tmp/src" && apt-get "${APT_OPTS[@]}" -q source --download-only "$1") \
        >"$tmp/apt-source.log" 2>&1
}

# Only a source of the requested release will do: the suite may move on
# (sid to 3.7, experimental to 4.1) and then the pinned version is gone.
msg "fetching openssl source $VERSION"
if ! fetch_source "openssl=$VERSION"; then
    tail -n 3 "$tmp/apt-source.log" >&2
    msg "openssl=$VERSION not available; trying the other $REL.x versions of $SUITE"
    # The index may list versions the mirror no longer serves (404): try
    # every listed $REL.x version, newest first.
    fetched=""
    for v in $(apt-cache "${APT_OPTS[@]}" showsrc openssl 2>/dev/null \
               | sed -n 's/^Version: *//p' | sort -u -V -r); do
        [ "$v" = "$VERSION" ] && continue
        case "$v" in "$REL."*) ;; *) continue ;; esac
        msg "trying openssl=$v"
        if fetch_source "openssl=$v"; then fetched=$v; break; fi
        tail -n 1 "$tmp/apt-source.log" >&2
    done
    [ -n "$fetched" ] || {
        tail -n 20 "$tmp/apt-source.log" >&2
        die "apt-get source openssl failed for every $REL.x version of $SUITE"
    }
fi

dsc="" orig=""
for f in "$tmp"/src/openssl_*.dsc; do [ -f "$f" ] && { dsc=$f; break; }; done
for f in "$tmp"/src/openssl_*.orig.tar.*; do
    case "$f" in *.asc) continue ;; esac
    [ -f "$f" ] && { orig=$f; break; }
done
[ -n "$orig" ] || die "no openssl .orig tarball was downloaded (see $tmp/apt-source.log)"
got_version="$(sed -n 's/^Version: *//p' "$dsc" 2>/dev/null | head -n1 || true)"
msg "downloaded $(basename "$orig") (Debian version ${got_version:-unknown})"

mkdir -p "$tmp/tree"
tar -xf "$orig" -C "$tmp/tree" --strip-components=1 || die "cannot extract $orig"
[ -f "$tmp/tree/Configure" ] || die "extracted tree has no Configure"

# --- build -------------------------------------------------------------------
rm -rf "$PREFIX.tmp"
: >"$LOG"
jobs="$(nproc 2>/dev/null || echo 2)"

# Build with --prefix=$PREFIX (paths are baked in) but install via DESTDIR into
# a staging dir, then move the finished tree into place in one rename.
stage="$tmp/stage"
msg "configuring (log: $LOG)"
(cd "$tmp/tree" && perl ./Configure --prefix="$PREFIX" --libdir=lib \
        shared no-tests no-docs) >>"$LOG" 2>&1 || {
    tail -n 40 "$LOG" >&2; die "Configure failed (full log: $LOG)"; }

msg "building with make -j$jobs (this takes a few minutes)"
(cd "$tmp/tree" && make -j"$jobs") >>"$LOG" 2>&1 || {
    tail -n 40 "$LOG" >&2; die "make failed (full log: $LOG)"; }

msg "installing"
(cd "$tmp/tree" && make DESTDIR="$stage" install_sw install_ssldirs) >>"$LOG" 2>&1 || {
    tail -n 40 "$LOG" >&2; die "make install failed (full log: $LOG)"; }

[ -d "$stage$PREFIX" ] || die "install produced no $stage$PREFIX"
mv "$stage$PREFIX" "$PREFIX.tmp"
# The tree must run from $PREFIX.tmp for this check: its library path is
# given explicitly, the baked-in prefix only matters for config and modules.
cache_valid "$PREFIX.tmp" || die "freshly built OpenSSL in $PREFIX.tmp does not report $REL.x"

# Swap into place (any stale, invalid tree is moved aside first).
if [ -e "$PREFIX" ]; then
    rm -rf "$PREFIX.old"
    mv "$PREFIX" "$PREFIX.old"
fi
mv "$PREFIX.tmp" "$PREFIX"
rm -rf "$PREFIX.old"

cache_valid "$PREFIX" || die "installed OpenSSL in $PREFIX is not usable"
msg "built $(LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/bin/openssl" version) from Debian ${got_version:-?} in ${SECONDS}s"
printf '%s\n' "$PREFIX"
