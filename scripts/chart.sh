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
#               implementation and parameter set, each bar labelled with the
#               same time in µs and as round trips per second; TLS 1.3
#               handshakes per CPU second per configuration (best and median
#               round), labelled with the CPU µs per handshake
#
# The rdtsc rate that turns ticks into µs: MLKEM_TSC_GHZ if set, else the
# JSON context's "tsc_ghz", else its "mhz_per_cpu" (what Google Benchmark
# records; on the x86 machines measured here the rdtsc rate is the nominal
# clock); none of them is an error.
#
# Needs python3 (reads the JSON) and gnuplot (Debian: gnuplot-nox). The
# machine's name and paths in the JSON are not copied into the chart. The
# labels of the y axis are set as tics (no invisible points: a zero-size
# marker is a zero scale matrix, which librsvg refuses as "InvalidMatrix").
set -euo pipefail
[[ $# -eq 3 ]] || { sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
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
import json, os, re, sys

bench, tls, tmp = sys.argv[1:4]
with open(bench) as f:
    doc = json.load(f)
runs = doc["benchmarks"]
ctx = doc.get("context", {})
if os.environ.get("MLKEM_TSC_GHZ"):
    ghz = float(os.environ["MLKEM_TSC_GHZ"])
elif "tsc_ghz" in ctx:
    ghz = float(ctx["tsc_ghz"])
elif "mhz_per_cpu" in ctx:
    ghz = float(ctx["mhz_per_cpu"]) / 1000
else:
    sys.exit("chart.sh: " + bench + " records no rdtsc rate (context tsc_ghz or "
             "mhz_per_cpu); set MLKEM_TSC_GHZ")


def rate(x):
    """A count per second, three significant digits."""
    if x >= 1e6:
        return "%.3gM" % (x / 1e6)
    if x >= 1e3:
        return ("%.3g" % (x / 1e3)) + "k"
    return "%.3g" % x


def us(x):
    return ("%.3g" % x) if x < 100 else "%.0f" % x

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
        vals, labels = [], []
        for b in ("512", "768", "1024"):
            if (i, b) in ticks:
                t = ticks[(i, b)]
                vals.append("%.1f" % (t / 1000))
                labels.append('"%.1fk = %s µs, %s/s"' % (t / 1000, us(t / ghz / 1000),
                                                         rate(ghz * 1e9 / t)))
            else:
                vals.append("-")
                labels.append('""')
        f.write('"%s" %s %s\n' % (names.get(i, i), " ".join(vals), " ".join(labels)))
kmax = max(ticks[k] for k in ticks if k[0] in impls) / 1000
with open(f"{tmp}/ytics", "w") as f:
    n = len(impls)
    f.write("kem=" + ", ".join('"%s" %d' % (names.get(i, i), n - 1 - k)
                              for k, i in enumerate(impls)) + "\n")
    f.write("kmax=%.1f\n" % kmax)
    f.write("ghz=%g\n" % ghz)

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
        f.write('"%s" %s %s "%s/s = %s µs" "%s/s = %s µs"\n' % (
            label.replace('"', "'"), b, m, b, us(1e6 / float(b)), m, us(1e6 / float(m))))
with open(f"{tmp}/ytics", "a") as f:
    n = len(rows)
    f.write("tls=" + ", ".join('"%s" %d' % (r[0].replace('"', "'"), n - 1 - k)
                              for k, r in enumerate(rows)) + "\n")
    f.write("tmax=%s\n" % max(float(r[1]) for r in rows))
with open(f"{tmp}/verdict", "w") as f:
    f.write(verdict)
PY

kems=$(wc -l <"$tmp/kem.dat")
rows=$(wc -l <"$tmp/tls.dat")
verdict=$(cat "$tmp/verdict")
kem_tics=$(sed -n 's/^kem=//p' "$tmp/ytics")
tls_tics=$(sed -n 's/^tls=//p' "$tmp/ytics")
kmax=$(sed -n 's/^kmax=//p' "$tmp/ytics")
tmax=$(sed -n 's/^tmax=//p' "$tmp/ytics")
ghz=$(sed -n 's/^ghz=//p' "$tmp/ytics")
# Layout in pixels: each panel has a title, its bars, the x axis and a key
# below; horizontal bars, so long labels read on the left.
p1=$((136 + 54 * kems)) p2=$((130 + 44 * rows))
height=$((p1 + p2))
gnuplot <<GP
set terminal svg size 1000,$height font "sans,12" background "white"
set encoding utf8
set output "$out"
H = $height.0
set multiplot
set style fill solid 0.85 border -1
set datafile missing "-"
set grid xtics lc rgb "#dddddd"
set lmargin at screen 0.42
set rmargin at screen 0.96
set xtics nomirror

# 1. ML-KEM, thousand ticks per keygen + encaps + decaps
set tmargin at screen 1 - 56/H
set bmargin at screen 1 - ($p1 - 90)/H
set title "ML-KEM keygen + encaps + decaps: thousand rdtsc ticks (lower is better)\n{/*0.9 beside each bar: the same in µs at $ghz GHz, and round trips per second}"
set xlabel "k ticks per keygen + encaps + decaps"
set xrange [0:$kmax * 1.55]
set yrange [-0.6:$kems-0.4]
set ytics nomirror scale 0 ($kem_tics)
set key at screen 0.69, screen 1 - ($p1 - 22)/H center center horizontal
plot "$tmp/kem.dat" using (\$2/2):(\$0+0.28):(\$2/2):(0.13) with boxxyerror title "ML-KEM-512" lc rgb "#9ecae1", \
     "" using (\$3/2):(\$0):(\$3/2):(0.13) with boxxyerror title "ML-KEM-768" lc rgb "#3182bd", \
     "" using (\$4/2):(\$0-0.28):(\$4/2):(0.13) with boxxyerror title "ML-KEM-1024" lc rgb "#08519c", \
     "" using 2:(\$0+0.28):5 with labels left offset 0.5,0 font ",9" notitle, \
     "" using 3:(\$0):6 with labels left offset 0.5,0 font ",9" notitle, \
     "" using 4:(\$0-0.28):7 with labels left offset 0.5,0 font ",9" notitle

# 2. TLS 1.3 handshakes per CPU second
set tmargin at screen 1 - ($p1 + 50)/H
set bmargin at screen 90/H
set title "TLS 1.3 handshakes per CPU second (higher is better)\n{/*0.9 $verdict}"
set xlabel "handshakes per CPU second, client + server (beside: CPU µs per handshake)"
set xrange [0:$tmax * 1.35]
set yrange [-0.6:$rows-0.4]
set ytics nomirror scale 0 ($tls_tics)
set key at screen 0.69, screen 22/H center center horizontal
plot "$tmp/tls.dat" using (\$2/2):(\$0+0.18):(\$2/2):(0.16) with boxxyerror title "best round" lc rgb "#31a354", \
     "" using (\$3/2):(\$0-0.18):(\$3/2):(0.16) with boxxyerror title "median round" lc rgb "#a1d99b", \
     "" using 2:(\$0+0.18):4 with labels left offset 0.5,0 font ",9" notitle, \
     "" using 3:(\$0-0.18):5 with labels left offset 0.5,0 font ",9" notitle
unset multiplot
GP
echo "chart.sh: wrote $out"
