#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# chart.sh: draw the performance chart (SVG) from the benchmark results.
#
#   scripts/chart.sh BENCH.json TLS.txt OUT.svg
#
#   BENCH.json  Google Benchmark's JSON from
#                 build/default/bench/mlkem_bench --benchmark_filter=kem_roundtrip \
#                     --benchmark_repetitions=5 --benchmark_format=json
#               (run on OpenSSL 3.5's libcrypto with MLKEM_PROVIDER_DIR set to
#               add OpenSSL 3.5's own ML-KEM and ours through EVP); the
#               "ticks" counter of each mlkem<N>/kem_roundtrip/<backend> and
#               evp_<provider>/mlkem<N>/kem_roundtrip run, the median
#               aggregate when there are repetitions, else the lowest run
#   TLS.txt     the output of bench/tls_handshakes.sh (its table and verdict)
#   OUT.svg     two panels: keygen + encaps + decaps in thousand ticks per
#               implementation and parameter set; TLS 1.3 handshakes per
#               CPU second per configuration (best and median round)
#
# Needs python3 (reads the JSON) and gnuplot (Debian: gnuplot-nox).
# The machine's name and paths in the JSON are not copied into the chart.
set -euo pipefail
[[ $# -eq 3 ]] || { sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bench=$1 tls=$2 out=$3
for tool in python3 gnuplot; do
    command -v "$tool" >/dev/null ||
        { echo "chart.sh: $tool not found (apt-get install python3 gnuplot-nox)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Both inputs to gnuplot data files: kem.dat (implementation, k ticks for
# 512/768/1024), tls.dat (configuration, best, median), title lines.
python3 - "$bench" "$tls" "$tmp" <<'PY'
import json, re, sys

bench, tls, tmp = sys.argv[1:4]
with open(bench) as f:
    runs = json.load(f)["benchmarks"]

names = {"portable": "mlkem, portable C", "avx2": "mlkem, AVX2",
         "avx512": "mlkem, AVX-512", "avx512-vbmi2": "mlkem, AVX-512 VBMI2",
         "evp_mlkem": "mlkem through EVP (on 3.5)",
         "evp_default": "OpenSSL 3.5 built-in (EVP)"}
order = ["portable", "avx2", "avx512", "avx512-vbmi2", "evp_mlkem", "evp_default"]
best = {}       # (impl, bits) -> ticks
median = {}
for r in runs:
    name = r.get("run_name", r["name"])
    m = re.fullmatch(r"mlkem(512|768|1024)/kem_roundtrip/([\w-]+)", name)
    if m:
        key = (m.group(2), m.group(1))
    else:
        m = re.fullmatch(r"(evp_\w+)/mlkem(512|768|1024)/kem_roundtrip", name)
        if not m:
            continue
        key = (m.group(1), m.group(2))
    if "ticks" not in r:
        continue
    if r.get("run_type") == "aggregate":
        if r.get("aggregate_name") == "median":
            median[key] = r["ticks"]
    else:
        best[key] = min(best.get(key, float("inf")), r["ticks"])
ticks = {**best, **median}
impls = [i for i in order if any((i, b) in ticks for b in ("512", "768", "1024"))]
if not impls:
    sys.exit("chart.sh: no kem_roundtrip results with a 'ticks' counter in " + bench)
with open(f"{tmp}/kem.dat", "w") as f:
    for i in reversed(impls):  # gnuplot draws the first row lowest
        vals = ["%.1f" % (ticks[(i, b)] / 1000) if (i, b) in ticks else "-"
                for b in ("512", "768", "1024")]
        f.write('"%s" %s\n' % (names.get(i, i), " ".join(vals)))

rows, verdict = [], ""
with open(tls) as f:
    for line in f:
        m = re.match(r"\|\s*(OpenSSL[^|]*?)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|", line)
        if m:
            rows.append((m.group(1), m.group(2), m.group(4)))
        elif line.startswith("goal "):
            verdict = line.split(":")[0] + ": hybrid / X25519 on 3.0 = " + \
                line.split("=")[1].split(",")[0].strip()
            b = re.search(r"backend ([\w-]+)", line)
            if b:
                verdict += " (" + b.group(1) + " backend)"
if not rows:
    sys.exit("chart.sh: no handshake table in " + tls)
with open(f"{tmp}/tls.dat", "w") as f:
    for label, b, m in reversed(rows):  # gnuplot draws the first row lowest
        f.write('"%s" %s %s\n' % (label.replace('"', "'"), b, m))
with open(f"{tmp}/verdict", "w") as f:
    f.write(verdict)
PY

kems=$(wc -l <"$tmp/kem.dat")
rows=$(wc -l <"$tmp/tls.dat")
verdict=$(cat "$tmp/verdict")
# Layout in pixels: each panel has a title, its bars, the x axis and a key
# below; horizontal bars, so long labels read on the left.
p1=$((120 + 54 * kems)) p2=$((130 + 44 * rows))
height=$((p1 + p2))
gnuplot <<GP
set terminal svg size 1000,$height font "sans,12" background "white"
set output "$out"
H = $height.0
set multiplot
set style fill solid 0.85 border -1
set grid xtics lc rgb "#dddddd"
set lmargin at screen 0.42
set rmargin at screen 0.96
set xrange [0:*]
set ytics nomirror scale 0
set xtics nomirror

# 1. ML-KEM, thousand ticks per keygen + encaps + decaps
set tmargin at screen 1 - 40/H
set bmargin at screen 1 - ($p1 - 90)/H
set title "ML-KEM keygen + encaps + decaps: thousand rdtsc ticks (lower is better)"
set xlabel "k ticks per keygen + encaps + decaps"
set yrange [-0.6:$kems-0.4]
set key at screen 0.69, screen 1 - ($p1 - 22)/H center center horizontal
plot "$tmp/kem.dat" using (0):(\$0):ytic(1) with points ps 0 notitle, \
     "" using (\$2/2):(\$0+0.28):(\$2/2):(0.13) with boxxyerror title "ML-KEM-512" lc rgb "#9ecae1", \
     "" using (\$3/2):(\$0):(\$3/2):(0.13) with boxxyerror title "ML-KEM-768" lc rgb "#3182bd", \
     "" using (\$4/2):(\$0-0.28):(\$4/2):(0.13) with boxxyerror title "ML-KEM-1024" lc rgb "#08519c"

# 2. TLS 1.3 handshakes per CPU second
set tmargin at screen 1 - ($p1 + 50)/H
set bmargin at screen 90/H
set title "TLS 1.3 handshakes per CPU second (higher is better)\n{/*0.9 $verdict}"
set xlabel "handshakes per CPU second, client + server"
set yrange [-0.6:$rows-0.4]
set key at screen 0.69, screen 22/H center center horizontal
plot "$tmp/tls.dat" using (0):(\$0):ytic(1) with points ps 0 notitle, \
     "" using (\$2/2):(\$0+0.18):(\$2/2):(0.16) with boxxyerror title "best round" lc rgb "#31a354", \
     "" using (\$3/2):(\$0-0.18):(\$3/2):(0.16) with boxxyerror title "median round" lc rgb "#a1d99b"
unset multiplot
GP
echo "chart.sh: wrote $out"
