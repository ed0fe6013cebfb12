# SPDX-License-Identifier: Apache-2.0
# scripts/lib/debsrc.sh - sourced, not run: fetch Debian source packages
# through a private deb-src list, without touching the system's apt
# configuration. Used by scripts/openssl-peer.sh (OpenSSL from trixie, sid,
# experimental) and bench/qemu/plugin-header.sh (qemu's plugin header from
# this machine's own suite).
#
#   debsrc_setup DIR BASE SUITE...
#       Find the URI (and keyring) of this machine's main Debian apt source,
#       the entry for suite BASE that is not the -security archive (deb822
#       .sources first, then one-line .list entries; a Signed-By holding an
#       inline key is ignored for Debian's keyring file). Write DIR/src.list
#       with a deb-src line for each SUITE on that URI, create DIR/lists and
#       DIR/src, and set the array DEBSRC_APT_OPTS to the apt options that
#       use only that list (Dir::State::Lists in DIR). Sets DEBSRC_URI and
#       DEBSRC_KEYRING. Returns 1 (and prints why) when no source is found.
#   debsrc_update DIR
#       apt-get update with those options; its log in DIR/update.log.
#   debsrc_download DIR PACKAGE[=VERSION]
#       apt-get source --download-only into DIR/src (emptied first); its
#       log in DIR/source.log.
#
# The callers name their own messages; these functions print nothing on
# success. Host names never appear in the repository: the URI is read from
# the machine's apt sources at run time.

debsrc__find() {  # $1: suite; prints "URI<TAB>SIGNED-BY" of the first match
    local suite=$1 f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v suite="$suite" '
            function flush() {
                if (uris != "" && (" " suites " ") ~ (" " suite " ") &&
                    uris !~ /security/ && suites !~ /security/ &&
                    enabled !~ /^[Nn]o/) {
                    split(uris, u, /[ \t]+/); print u[1] "\t" signed; found = 1; exit
                }
                uris = ""; suites = ""; signed = ""; enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "uris:"      { sub(/^[^:]*:[ \t]*/, ""); uris = $0 }
            tolower($1) == "suites:"    { sub(/^[^:]*:[ \t]*/, ""); gsub(/\t/, " "); suites = $0 }
            tolower($1) == "signed-by:" { sub(/^[^:]*:[ \t]*/, ""); signed = $0 }
            tolower($1) == "enabled:"   { sub(/^[^:]*:[ \t]*/, ""); enabled = $0 }
            END { if (!found) flush() }' "$f" | head -n1
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        # deb [opts] URI suite components...
        awk -v suite="$suite" '
            /^[ \t]*(deb|deb-src)[ \t]/ {
                line = $0; sub(/^[ \t]*deb(-src)?[ \t]+/, "", line); opts = ""
                if (line ~ /^\[/) {
                    opts = line; sub(/\].*/, "", opts); sub(/^\[/, "", opts)
                    sub(/^\[[^]]*\][ \t]*/, "", line)
                }
                n = split(line, a, /[ \t]+/)
                if (n >= 2 && a[2] == suite && a[1] !~ /security/) {
                    signed = ""
                    if (match(opts, /signed-by=[^ \t]+/))
                        signed = substr(opts, RSTART + 10, RLENGTH - 10)
                    print a[1] "\t" signed; exit
                }
            }' "$f" | head -n1
    done
}

debsrc_setup() {  # DIR BASE SUITE...
    local dir=$1 base=$2 entry s
    shift 2
    entry="$(debsrc__find "$base" | head -n1)"
    if [ -z "$entry" ]; then
        printf 'debsrc: no Debian %s apt source in /etc/apt/sources.list{,.d}\n' "$base" >&2
        return 1
    fi
    DEBSRC_URI="${entry%%$'\t'*}"
    DEBSRC_KEYRING="${entry#*$'\t'}"
    case "$DEBSRC_KEYRING" in /*) [ -r "$DEBSRC_KEYRING" ] || DEBSRC_KEYRING="" ;; *) DEBSRC_KEYRING="" ;; esac
    if [ -z "$DEBSRC_KEYRING" ] && [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
        DEBSRC_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
    fi
    mkdir -p "$dir/lists/partial" "$dir/src"
    for s in "$@"; do
        if [ -n "$DEBSRC_KEYRING" ]; then
            printf 'deb-src [signed-by=%s] %s %s main\n' "$DEBSRC_KEYRING" "$DEBSRC_URI" "$s"
        else
            printf 'deb-src %s %s main\n' "$DEBSRC_URI" "$s"
        fi
    done >"$dir/src.list"
    DEBSRC_APT_OPTS=(
        -o "Dir::Etc::SourceList=$dir/src.list"
        -o "Dir::Etc::SourceParts=/dev/null"
        -o "Dir::State::Lists=$dir/lists"
        -o "Dir::Cache::pkgcache="
        -o "Dir::Cache::srcpkgcache="
        -o "APT::Get::List-Cleanup=false"
        -o "APT::Sandbox::User=root"
    )
}

debsrc_update() {  # DIR
    apt-get "${DEBSRC_APT_OPTS[@]}" -q update >"$1/update.log" 2>&1
}

debsrc_download() {  # DIR PACKAGE[=VERSION]
    rm -f "$1/src"/* 2>/dev/null || true
    (cd "$1/src" && apt-get "${DEBSRC_APT_OPTS[@]}" -q source --download-only "$2") \
        >"$1/source.log" 2>&1
}
