#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_reproducible.sh SOURCE_DIR: the .deb is reproducible, and the
# README's package commands work from a fresh clone exactly as written.
#
#  - two fresh clones of SOURCE_DIR's HEAD (git clone: committed files
#    only, as a user gets them), in two directories of different names and
#    lengths; in each, the README's package line (the line of README.md
#    that starts with `cmake --workflow --preset package`), run as written
#    with SOURCE_DATE_EPOCH unset (cmake/CPackProject.cmake.in takes it from
#    the commit);
#  - the .deb the README's `apt-get install ./build/package/...` line names
#    exists in both, and the two are the same bytes; when they differ, the
#    files that differ are listed;
#  - no build path (either clone's directory) in any file of the package;
#    the module names its sources relative ("provider/kem.c", the file
#    OpenSSL's error lines print), never under a directory;
#  - every time stamp in the package is the commit's.
# The package preset builds the module and the tools only
# (MLKEM_BUILD_TESTS=OFF, MLKEM_BUILD_BENCH=OFF): a few minutes.
set -u
src=${1:-${MLKEM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-repro.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"
for tool in git cmake dpkg-deb; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found (scripts/deps.sh --test)" >&2; exit 1; }
done
git -C "$src" rev-parse --verify -q HEAD >/dev/null ||
    { echo "FAIL: $src is not a git checkout with a commit" >&2; exit 1; }
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
    echo "note: $src has uncommitted changes; the clones build its HEAD"

readme_line=$(grep -m1 '^cmake --workflow --preset package\b' "$src/README.md") ||
    { echo "FAIL: README.md has no line starting 'cmake --workflow --preset package'" >&2; exit 1; }
deb_rel=$(grep -m1 -o 'apt-get install \./build/package/[^ ]*\.deb' "$src/README.md" | sed 's|apt-get install \./||') ||
    { echo "FAIL: README.md names no ./build/package/*.deb to install" >&2; exit 1; }
echo "README: $readme_line"
echo "README: apt-get install ./$deb_rel"
rev=$(git -C "$src" rev-parse HEAD)
epoch=$(git -C "$src" log -1 --format=%ct "$rev")

# Two directories whose names differ in length, so a path left anywhere
# shifts bytes.
dirs=("$tmp/a/mlkem" "$tmp/a-much-longer-directory/x/mlkem")
i=0
for d in "${dirs[@]}"; do
    i=$((i + 1))
    mkdir -p "$(dirname "$d")"
    # Both at the commit HEAD was when the test started.
    if ! { git clone -q --no-checkout "$src" "$d" && git -C "$d" checkout -q "$rev"; } >"$tmp/clone$i.log" 2>&1; then
        cat "$tmp/clone$i.log"; echo "FAIL: git clone $src" >&2; exit 1
    fi
    start=$SECONDS
    if (cd "$d" && env -u SOURCE_DATE_EPOCH bash -c "$readme_line") >"$tmp/build$i.log" 2>&1; then
        ok "clone $i: the README's line ran ($((SECONDS - start)) s)"
    else
        tail -n 30 "$tmp/build$i.log"
        echo "FAIL: clone $i: '$readme_line' failed" >&2; exit 1
    fi
    [ -f "$d/$deb_rel" ] && ok "clone $i: ./$deb_rel exists, as the README's apt-get line says" ||
        { ls "$d/build/package" >&2; echo "FAIL: clone $i: no $deb_rel" >&2; exit 1; }
    grep -q 'MLKEM_BUILD_TESTS:BOOL=OFF' "$d/build/package/CMakeCache.txt" &&
        [ ! -d "$d/build/package/test" ] && ok "clone $i: tests and benchmarks not compiled" ||
        fail "clone $i: the package build compiled the tests"
done
deb1=${dirs[0]}/$deb_rel deb2=${dirs[1]}/$deb_rel

if cmp -s "$deb1" "$deb2"; then
    ok "the two .deb files are identical ($(stat -c %s "$deb1") bytes, sha256 $(sha256sum <"$deb1" | cut -c1-16)...)"
else
    fail "the two .deb files differ"
    dpkg-deb -R "$deb1" "$tmp/x1" && dpkg-deb -R "$deb2" "$tmp/x2"
    diff -r "$tmp/x1" "$tmp/x2" >&2
    dpkg-deb -c "$deb1" >"$tmp/c1"; dpkg-deb -c "$deb2" >"$tmp/c2"
    diff "$tmp/c1" "$tmp/c2" >&2
fi

dpkg-deb -x "$deb1" "$tmp/x"
leaks=$(grep -rlaF -e "${dirs[0]}" -e "${dirs[1]}" -e "$tmp" "$tmp/x" | sed "s|^$tmp/x||")
[ -z "$leaks" ] && ok "no build directory in any packaged file" || fail "build paths in:$leaks"
so=$(find "$tmp/x" -name mlkem.so | head -n 1)
names=$(strings -a "$so" | grep -E '(^|/)provider/[a-z_]+\.c$' | sort -u)
if grep -qx 'provider/kem.c' <<<"$names" && ! grep -q '/provider/' <<<"$names"; then
    ok "the module names its sources relative: $(tr '\n' ' ' <<<"$names" | cut -c1-80)..."
else
    fail "source names in mlkem.so: ${names:-none}"
fi
# Every entry's time is the commit's (tar prints YYYY-MM-DD HH:MM).
want=$(date -u -d "@$epoch" '+%Y-%m-%d %H:%M')
other=$(TZ=UTC dpkg-deb -c "$deb1" | awk -v w="$want" '$4 " " $5 != w')
[ -z "$other" ] && ok "every file's time is the commit's ($want UTC)" ||
    fail "time stamps other than the commit's ($want): $other"

test_finish
