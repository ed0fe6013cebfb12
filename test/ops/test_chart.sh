#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_chart.sh: scripts/chart.sh on the sample results in data/ (made-up
# numbers in the formats of mlkem_bench --benchmark_format=json and
# bench/tls_handshakes.sh): the SVG is well-formed XML and names every
# implementation, parameter set, handshake configuration and the verdict;
# input without kem_roundtrip results is an error. The committed chart
# (docs/performance.svg) is what the README shows.
set -u
src=${1:-${MLKEM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
data=$src/test/ops/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-chart.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"

if bash "$src/scripts/chart.sh" "$data/bench-sample.json" "$data/tls-sample.txt" "$tmp/c.svg" \
    >"$tmp/out" 2>&1; then
    ok "chart.sh: $(cat "$tmp/out")"
else
    echo "FAIL: chart.sh: $(cat "$tmp/out")" >&2; exit 1
fi
python3 - "$tmp/c.svg" >"$tmp/texts" <<'PY' || fail "the SVG is not well-formed XML"
import sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
def text(n):
    return n.data if n.nodeType == n.TEXT_NODE else "".join(text(c) for c in n.childNodes)
for t in doc.getElementsByTagName("text"):
    s = text(t).strip()
    if s:
        print(s)
PY
for want in "mlkem, portable C" "mlkem, AVX2" "mlkem through EVP (on 3.5)" "OpenSSL 3.5 built-in (EVP)" \
            ML-KEM-512 ML-KEM-768 ML-KEM-1024 \
            "OpenSSL 3.0, X25519 (default provider only)" "OpenSSL 3.0 + mlkem, X25519MLKEM768" \
            "OpenSSL 3.5 built-in, X25519MLKEM768" "best round" "median round" \
            "goal met: hybrid / X25519 on 3.0 = 0.903 (avx2 backend)"; do
    grep -qxF "$want" "$tmp/texts" || fail "the chart lacks '$want'"
done
ok "the chart names the implementations, sets, configurations and the verdict"
! grep -q 'made up' "$tmp/c.svg" &&
    ok "nothing from the JSON's context (machine, paths) is copied" || fail "context leaked"
printf '{"benchmarks": [{"name": "mlkem768/keygen/avx2", "ticks": 1}]}' >"$tmp/none.json"
if bash "$src/scripts/chart.sh" "$tmp/none.json" "$data/tls-sample.txt" "$tmp/n.svg" >"$tmp/n.out" 2>&1; then
    fail "chart.sh accepted a JSON without kem_roundtrip results"
else
    ok "no kem_roundtrip results: $(tail -n 1 "$tmp/n.out")"
fi
[ -s "$src/docs/performance.svg" ] && grep -q 'docs/performance.svg' "$src/README.md" &&
    ok "docs/performance.svg is committed and the README shows it" ||
    fail "docs/performance.svg missing or not shown in README.md"

test_finish
