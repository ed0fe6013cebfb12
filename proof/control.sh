#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# control.sh NAME DRIVER: a negative control of the proof. Copies the
# kernel (common/, keccak/, kem/) to ./NAME/, plants the error NAME names
# (below: a text that must occur exactly once in a file, and its
# replacement), runs proof/eva.sh on the copy with DRIVER, and passes only
# when that analysis fails with an alarm matching the expected report (the
# planted error, at its place): an analysis that stopped reporting it would
# fail this test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
name=$1 driver=$2
case $name in
control_off_by_one) # a loop bound one too far: r[256] written
    file=kem/poly.c
    old='    for (unsigned i = 0; i < 256; i++)
        r[i] = mlkem_barrett_reduce(r[i]);'
    new='    for (unsigned i = 0; i <= 256; i++)
        r[i] = mlkem_barrett_reduce(r[i]);'
    expect='kem/poly\.c:[0-9]+: .*out of bounds (read|write)' ;;
control_no_reduction) # NTT^-1 without its input reduction
    file=kem/ntt_template.h
    old='c[e] = mlkem_barrett_reduce(r[8 * g + e]);'
    new='c[e] = r[8 * g + e];'
    expect='kem/ntt_template\.h:[0-9]+: .*signed downcast' ;;
*)
    echo "control.sh: unknown control $name" >&2
    exit 2 ;;
esac
work=$PWD/$name
rm -rf "$work"
mkdir -p "$work"
cp -r "$repo/common" "$repo/keccak" "$repo/kem" "$work/"
python3 - "$work/$file" "$old" "$new" <<'PY'
import sys
path, old, new = sys.argv[1:4]
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
