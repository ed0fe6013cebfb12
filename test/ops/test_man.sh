#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_man.sh SOURCE_DIR: the man pages in docs/man.
#  - each renders with `groff -ww -z -man` (every warning on) and prints
#    nothing: no warning, no error;
#  - each page names itself in .TH with its file's section;
#  - every option each program accepts is documented in its page's
#    OPTIONS section (the tag of a paragraph: the option first, or after
#    ", " for an alias).
#    The options are read from the program itself: its -help output (for
#    mlkem-pkeyutl printed from its option table) and, for mlkem-check and
#    mlkem-speed, every option string their parsers compare argv with, so
#    an option added without its documentation fails here.
set -u
SRC=${1:?usage: test_man.sh SOURCE_DIR}
BIN=${MLKEM_BINARY_DIR:?}/tools
MAN=$SRC/docs/man
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
command -v groff >/dev/null || { echo "FAIL: groff not installed (scripts/deps.sh)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pages=(mlkem.7 mlkem-check.1 mlkem-speed.1 mlkem-pkeyutl.1)
for p in "${pages[@]}"; do
    f=$MAN/$p
    [ -f "$f" ] || { fail "$p: missing"; continue; }
    name=${p%.*} sect=${p##*.}
    groff -ww -z -man "$f" >"$tmp/warn" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && [ ! -s "$tmp/warn" ]; then
        ok "$p: groff -ww -z: no warning"
    else
        fail "$p: groff exit $rc: $(cat "$tmp/warn")"
    fi
    grep -q "^\.TH $(echo "$name" | tr a-z A-Z) $sect " "$f" && ok "$p: .TH ${name^^} $sect" ||
        fail "$p: no '.TH ${name^^} $sect'"
done

# options PROGRAM: what the program accepts, one per line
options() {
    local prog=$1
    # Its -help: the option lines (" -name ..." / " --name ...").
    "$BIN/$prog" -help 2>&1 | sed -n 's/^ \(--*[a-z][a-z0-9-]*\).*/\1/p'
    # Its parser's option strings (mlkem-pkeyutl's come from its table).
    case $prog in
    mlkem-check) src=("$SRC/tools/mlkem_check.c") ;;
    mlkem-speed) src=("$SRC/tools/mlkem_speed.c") ;;
    *) src=() ;;
    esac
    [ ${#src[@]} -gt 0 ] && grep -ho 'strcmp([a-z]*\(\[[0-9]\]\)\?, "--*[a-z][a-z0-9-]*")' "${src[@]}" |
        sed 's/.*"\(.*\)")/\1/'
}
for prog in mlkem-check mlkem-speed mlkem-pkeyutl; do
    [ -x "$BIN/$prog" ] || { fail "$BIN/$prog not built"; continue; }
    # The OPTIONS section as text: tagged paragraphs start at column 8.
    groff -man -Tascii -P-cbu "$MAN/$prog.1" 2>/dev/null |
        awk '/^OPTIONS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' >"$tmp/$prog.txt"
    list=$(options "$prog" | grep -vxE -- '-h|--help' | sort -u)
    n=0 missing=()
    for o in $list; do
        n=$((n + 1))
        grep -Eq -- "^       ([^ ].*, )?$o( |,|$)" "$tmp/$prog.txt" || missing+=("$o")
    done
    if [ "$n" -lt 5 ]; then
        fail "$prog: only $n options read from the program: $list"
    elif [ ${#missing[@]} = 0 ]; then
        ok "$prog(1) documents all $n options: $(echo $list)"
    else
        fail "$prog(1) lacks ${missing[*]} in OPTIONS"
    fi
done

test_finish
