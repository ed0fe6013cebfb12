#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_spdx.sh: scripts/spdx.sh on a small git tree made here: the check
# lists exactly the source files without the tag (C, C++, CMake, shell, a
# script without extension, configuration) and ignores documentation, JSON,
# data and git-ignored files; --fix adds the tag in each file's comment
# syntax, after a #! line, keeping the mode; then the check passes and a
# second --fix changes nothing.
# Usage: test_spdx.sh [SOURCE_DIR]
set -u
src=${1:-${MLKEM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
spdx=$src/scripts/spdx.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-spdx.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
command -v git >/dev/null || { echo "FAIL: git not found" >&2; exit 1; }

t=$tmp/tree
mkdir -p "$t/src" "$t/.ci" "$t/docs" "$t/build"
cd "$t" || exit 1
printf '/*\n * a.c: a file.\n */\nint a(void) { return 1; }\n' >src/a.c
printf '#ifndef B_H\n#define B_H\n#endif\n' >src/b.h
printf 'int c() { return 0; }\n' >src/c.cc
printf 'cmake_minimum_required(VERSION 3.20)\n' >CMakeLists.txt
printf 'set(X 1)\n' >src/d.cmake
printf '#!/bin/sh\necho e\n' >src/e.sh
printf '#!/usr/bin/env bash\nexit 0\n' >.ci/run
chmod 755 src/e.sh .ci/run
printf '[sect]\nkey = value\n' >src/f.cnf
printf 'GLOBAL { global: x; local: *; };\n' >src/g.map
printf '# docs\n' >docs/h.md
printf '{ "a": 1 }\n' >h.json
printf 'ab12\n' >src/data.txt
printf '/* SPDX-License-Identifier: Apache-2.0 */\nint t;\n' >src/tagged.c
printf '# comment\n# comment\n# SPDX-License-Identifier: Apache-2.0\n' >src/tagged.cmake
printf 'int ignored;\n' >build/ignored.c
printf 'build/\n' >.gitignore
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm t
printf 'int untracked;\n' >src/new.c   # untracked, not ignored: checked too

want=".ci/run CMakeLists.txt src/a.c src/b.h src/c.cc src/d.cmake src/e.sh src/f.cnf src/g.map src/new.c"
out=$(bash "$spdx" -C "$t" 2>"$tmp/err"); rc=$?
got=$(echo "$out" | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then
    ok "check: status 1, lists the 10 untagged source files"
else
    fail "check: status $rc, listed '$got', want '$want'"
fi
grep -q '10 of 12 source files' "$tmp/err" && ok "check: '$(cat "$tmp/err")'" ||
    fail "check summary: $(cat "$tmp/err")"

bash "$spdx" -C "$t" --fix >"$tmp/fix.out" 2>&1 || fail "--fix failed: $(cat "$tmp/fix.out")"
if bash "$spdx" -C "$t" >"$tmp/out2" 2>&1; then ok "after --fix the check passes"
else fail "after --fix: $(cat "$tmp/out2")"; fi
[ "$(sed -n 1p src/a.c)" = '/* SPDX-License-Identifier: Apache-2.0 */' ] &&
    [ "$(sed -n 2p src/a.c)" = '/*' ] && ok "C: /* tag */ above the header comment" ||
    fail "src/a.c: $(head -n 2 src/a.c)"
[ "$(sed -n 1p src/e.sh)" = '#!/bin/sh' ] && [ "$(sed -n 2p src/e.sh)" = '# SPDX-License-Identifier: Apache-2.0' ] &&
    [ -x src/e.sh ] && [ -x .ci/run ] && [ "$(sed -n 1p .ci/run)" = '#!/usr/bin/env bash' ] &&
    ok "scripts: tag after the #! line, still executable" ||
    fail "scripts: $(head -n 2 src/e.sh) / $(head -n 2 .ci/run)"
[ "$(sed -n 1p CMakeLists.txt)" = '# SPDX-License-Identifier: Apache-2.0' ] &&
    [ "$(sed -n 1p src/f.cnf)" = '# SPDX-License-Identifier: Apache-2.0' ] &&
    ok "CMake, cnf: # tag" || fail "CMake/cnf: $(head -n1 CMakeLists.txt src/f.cnf)"
sh src/e.sh >/dev/null && ok "the fixed shell script still runs" || fail "src/e.sh no longer runs"
if command -v cc >/dev/null; then
    cc -c -o "$tmp/a.o" src/a.c && ok "the fixed C file still compiles" || fail "src/a.c no longer compiles"
fi
for f in docs/h.md h.json src/data.txt build/ignored.c src/tagged.c src/tagged.cmake; do
    git diff --quiet -- "$f" 2>/dev/null && [ -z "$(git status --porcelain -- "$f")" ] ||
        fail "--fix changed $f"
done
ok "--fix left docs, JSON, data, ignored and tagged files alone"
sum=$(cat src/* CMakeLists.txt .ci/run | cksum)
bash "$spdx" -C "$t" --fix >/dev/null 2>&1
[ "$(cat src/* CMakeLists.txt .ci/run | cksum)" = "$sum" ] && ok "a second --fix changes nothing" ||
    fail "a second --fix changed files"

test_finish
