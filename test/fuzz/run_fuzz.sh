#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_fuzz.sh: run one libFuzzer target for a bounded time from its seed
# corpus (CTest's fuzz_<target> tests in the fuzz preset) and print its
# figures. Fails on any finding: a crash, a sanitizer report (ASan, UBSan),
# a leak (LeakSanitizer), an oracle of the harness (abort), a timeout or an
# out-of-memory.
#
#   run_fuzz.sh <fuzz binary> <seed corpus dir> <seconds>
#
# The seeds are copied to a scratch corpus (the repository's stay as they
# are); findings are kept in $MLKEM_BINARY_DIR/fuzz-artifacts/<target>/.
# libFuzzer's own default error exit code is 77, which CTest would report as
# a skip: it is set to 1 here.
set -uo pipefail

bin=$1 seeds=$2 secs=$3
name=$(basename "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
art=${MLKEM_BINARY_DIR:-$work}/fuzz-artifacts/$name
mkdir -p "$work/corpus" "$art"
cp "$seeds"/* "$work/corpus/"

"$bin" -max_total_time="$secs" -print_final_stats=1 -detect_leaks=1 \
    -error_exitcode=1 -timeout_exitcode=1 -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix="$art/" "$work/corpus" >"$work/log" 2>&1
rc=$?

# Figures: the last status line (#N ... cov: C ft: F corp: ... exec/s: E)
# and the final stats.
last=$(grep -E '^#[0-9]+' "$work/log" | tail -n 1)
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
grep -E '^(INFO: Loaded|INFO: seed corpus|fuzz counters)' "$work/log"
echo "fuzz summary: $name ${secs}s runs=${runs:-?} exec/s=${eps:-?}" \
     "cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} rc=$rc"
if [[ $rc -ne 0 ]]; then
    echo "FAIL: $name found something (exit $rc); the log's end:" >&2
    tail -n 80 "$work/log" >&2
    ls -l "$art" >&2
    exit 1
fi
