#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# spdx.sh: every source file of the project carries the line
#     SPDX-License-Identifier: Apache-2.0
# within its first five lines.
#
#   scripts/spdx.sh              check: list the files without it, exit 1 if any
#   scripts/spdx.sh --fix        add it where missing, as a comment in the
#                                file's own syntax (after a #! line)
#   scripts/spdx.sh -C DIR ...   work on the tree at DIR (default: this clone)
#
# Source files are the files git tracks plus the untracked ones it does not
# ignore (every file under DIR when DIR is not a git work tree) whose name
# matches
#     C, C++, linker script   *.c *.h *.cc *.cpp *.hpp *.map     /* ... */
#     CMake                   CMakeLists.txt *.cmake             # ...
#     shell, Python, gnuplot  *.sh *.py *.gp                     # ...
#     configuration examples  *.cnf *.cnf.example *.conf *.cfg   # ...
# or that start with "#!" (scripts without an extension, e.g. .ci/run).
# Not checked: documentation (*.md), JSON (no comments: CMakePresets.json),
# and data (test vectors, which keep their authors' licences; see
# test/vectors/data/README.md).
#
# Reference: SPDX specification 2.3, Annex D (license identifiers in source
# files); the identifier is the SPDX short name of LICENSE.
set -euo pipefail

TAG='SPDX-License-Identifier: Apache-2.0'
root=$(cd "$(dirname "$0")/.." && pwd)
fix=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --fix) fix=1 ;;
        -C) root=$(cd "$2" && pwd); shift ;;
        -h | --help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "spdx.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
cd "$root"

# style FILE: "c" (/* */), "hash" (#), or "" when FILE is not a source file.
style() {
    case "${1##*/}" in
        *.c | *.h | *.cc | *.cpp | *.hpp | *.map) echo c; return ;;
        CMakeLists.txt | *.cmake | *.sh | *.py | *.gp | *.cnf | *.cnf.example | *.conf | *.cfg)
            echo hash; return ;;
        *.md | *.json | *.txt | *.xz | *.gz | *.svg | *.pem) return ;;
    esac
    if [[ $(head -c 2 "$1" 2>/dev/null | tr -d '\0') == '#!' ]]; then echo hash; fi
}

list_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard
    else
        find . -path ./build -prune -o -path ./.git -prune -o -type f -print0 |
            sed -z 's|^\./||'
    fi
}

missing=0 fixed=0 checked=0
while IFS= read -r -d '' f; do
    [[ -f $f && ! -L $f ]] || continue
    s=$(style "$f")
    [[ -n $s ]] || continue
    checked=$((checked + 1))
    if head -n 5 "$f" | grep -qF "$TAG"; then
        continue
    fi
    if [[ $fix -eq 0 ]]; then
        echo "$f"
        missing=$((missing + 1))
        continue
    fi
    if [[ $s == c ]]; then line="/* $TAG */"; else line="# $TAG"; fi
    tmp=$(mktemp "$f.spdx.XXXXXX")
    if [[ $(head -c 2 "$f") == '#!' ]]; then
        { head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
    else
        { printf '%s\n' "$line"; cat "$f"; } >"$tmp"
    fi
    chmod --reference="$f" "$tmp"
    mv "$tmp" "$f"
    fixed=$((fixed + 1))
done < <(list_files)

if [[ $fix -eq 1 ]]; then
    echo "spdx.sh: $checked source files, tag added to $fixed"
    exit 0
fi
if [[ $missing -ne 0 ]]; then
    echo "spdx.sh: $missing of $checked source files lack '$TAG' in their first 5 lines (scripts/spdx.sh --fix adds it)" >&2
    exit 1
fi
echo "spdx.sh: all $checked source files carry '$TAG'"
