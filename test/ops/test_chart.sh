#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_chart.sh: scripts/chart.sh on the sample results in data/ (made-up
# numbers in the formats of mlkem_bench --benchmark_format=json and
# bench/tls_handshakes.sh): the SVG is well-formed XML and names every
# implementation, parameter set, handshake configuration and the verdict;
# input without kem_roundtrip results is an error; each bar is labelled
# with µs and operations per second at the run's rdtsc rate. Both the
# sample chart and the committed one (docs/performance.svg, what the README
# shows) render in librsvg (rsvg-convert, as Debian's image viewers and
# GNOME do) to a PNG that is not blank: enough non-white pixels, and the
# bars' own colours among them. docs/performance.svg is chart.sh's output
# for the run kept in docs/performance-run/, and docs/performance.md shows
# that run's TLS table: chart and page come from one run.
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
            "goal met: hybrid / X25519 on 3.0 = 0.903 (avx2 backend)" \
            "79.0k = 39.5 µs, 25.3k/s" "966/s = 1035 µs"; do
    grep -qxF "$want" "$tmp/texts" || fail "the chart lacks '$want'"
done
ok "the chart names the implementations, sets, configurations and the verdict"
! grep -q 'made up' "$tmp/c.svg" &&
    ok "nothing from the JSON's context (machine, paths) is copied" || fail "context leaked"
printf '{"context": {"tsc_ghz": 2}, "benchmarks": [{"name": "mlkem768/keygen/avx2", "ticks": 1}]}' >"$tmp/none.json"
if bash "$src/scripts/chart.sh" "$tmp/none.json" "$data/tls-sample.txt" "$tmp/n.svg" >"$tmp/n.out" 2>&1; then
    fail "chart.sh accepted a JSON without kem_roundtrip results"
else
    ok "no kem_roundtrip results: $(tail -n 1 "$tmp/n.out")"
fi
[ -s "$src/docs/performance.svg" ] && grep -q 'docs/performance.svg' "$src/README.md" &&
    ok "docs/performance.svg is committed and the README shows it" ||
    fail "docs/performance.svg missing or not shown in README.md"
printf '{"context": {}, "benchmarks": [{"name": "mlkem768/kem_roundtrip/avx2", "ticks": 1}]}' >"$tmp/norate.json"
if MLKEM_TSC_GHZ= bash "$src/scripts/chart.sh" "$tmp/norate.json" "$data/tls-sample.txt" "$tmp/r.svg" >"$tmp/r.out" 2>&1; then
    fail "chart.sh drew µs without an rdtsc rate"
else
    ok "no rdtsc rate recorded: $(tail -n 1 "$tmp/r.out")"
fi

# Rendering: rsvg-convert, then the PNG's pixels (stdlib only).
command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert not found (librsvg2-bin)" >&2; exit 1; }
render() { # render SVG NAME: rsvg-convert to $tmp/NAME.png, then count
    if ! rsvg-convert "$1" -o "$tmp/$2.png" 2>"$tmp/$2.err"; then
        fail "rsvg-convert $1: $(cat "$tmp/$2.err")"; return
    fi
    if out=$(python3 - "$tmp/$2.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format"
bpp = 4 if ctype == 6 else 3
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
ink, colours = 0, set()
for line in rows:
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        if (bpp == 4 and line[x + 3] == 0) or px == (255, 255, 255):
            continue
        ink += 1
        colours.add(px)
# The bars: ML-KEM-768 #3182bd and the best round #31a354 at 85% on white.
def near(c, want):
    return all(abs(c[k] - (want[k] * 0.85 + 255 * 0.15)) <= 3 for k in range(3))
bars = [name for name, rgb in (("blue", (0x31, 0x82, 0xbd)), ("green", (0x31, 0xa3, 0x54)))
        if any(near(c, rgb) for c in colours)]
print("%dx%d, %.1f%% ink, bars %s" % (w, h, 100.0 * ink / (w * h), "+".join(bars) or "none"))
sys.exit(0 if ink > 0.02 * w * h and len(bars) == 2 else 1)
PY
    ); then
        ok "$1 renders in rsvg-convert, not blank: $out"
    else
        fail "$1 renders blank or without its bars: $out"
    fi
}
render "$tmp/c.svg" sample
render "$src/docs/performance.svg" committed

# One run: the committed chart is chart.sh's drawing of docs/performance-run/,
# and docs/performance.md shows the same TLS table.
run=$src/docs/performance-run
if bash "$src/scripts/chart.sh" "$run/bench.json" "$run/tls.txt" "$tmp/again.svg" >/dev/null 2>&1 &&
    cmp -s "$tmp/again.svg" "$src/docs/performance.svg"; then
    ok "docs/performance.svg is chart.sh's output for docs/performance-run/"
else
    fail "docs/performance.svg is not chart.sh's output for docs/performance-run/ (scripts/chart.sh docs/performance-run/bench.json docs/performance-run/tls.txt docs/performance.svg)"
fi
if [[ "$(cat "$src/docs/performance.md")" == *"$(cat "$run/tls.txt")"* ]]; then
    ok "docs/performance.md shows the run's TLS table verbatim"
else
    fail "docs/performance.md's TLS block is not docs/performance-run/tls.txt"
fi

test_finish
