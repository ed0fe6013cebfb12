#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# control.sh NAME FILE OLD NEW EXPECT DRIVER: a negative control of the
# proof. Copies the kernel (common/, keccak/, kem/) to ./NAME/, replaces
# the text OLD by NEW in FILE there (it must occur exactly once), runs
# proof/eva.sh on the copy with DRIVER, and passes only when that analysis
# fails with an alarm whose report matches the regex EXPECT (the planted
# error, at its place): an analysis that stopped reporting it would fail
# this test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
name=$1 file=$2 old=$3 new=$4 expect=$5 driver=$6
work=$PWD/$name
rm -rf "$work"
mkdir -p "$work"
cp -r "$repo/common" "$repo/keccak" "$repo/kem" "$work/"
python3 - "$work/$file" "$old" "$new" <<'PY'
import sys
path, old, new = sys.argv[1], sys.argv[2].encode().decode('unicode_escape'), sys.argv[3].encode().decode('unicode_escape')
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"control.sh: {old!r} occurs {text.count(old)} times in {path}, not once")
open(path, 'w').write(text.replace(old, new))
PY
set +e
KERNEL_DIR=$work PROOF_LOG=$work.log "$here/eva.sh" "$name" "$driver"
rc=$?
set -e
if [[ $rc -eq 0 ]]; then
    echo "control.sh $name: the analysis of the mutated kernel passed: the planted error went unreported" >&2
    exit 1
fi
# Each alarm on one line: "[eva:alarm] FILE:LINE: Warning: <the alarm>".
if ! awk '/^\[eva:alarm\]/ { a = $0; getline; print a " " $0 }' "$work.log" |
        grep -Eq "$expect"; then
    echo "control.sh $name: the analysis failed, but no alarm matches /$expect/" >&2
    exit 1
fi
echo "control.sh $name: reported as expected (/$expect/)"
