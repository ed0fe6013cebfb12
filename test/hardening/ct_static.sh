#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ct_static.sh: static constant-time check of the compiled kernel (keccak/,
# kem/, arch/ backends), the part of the constant-time argument that
# valgrind cannot make for code it cannot run (AVX-512, later NEON).
#
#   ct_static.sh <libmlkem_core.a> [objdump]
#
# Fails when the disassembly of any kernel function contains
#   - a gather or scatter (vpgather*, vgather*, vpscatter*, vscatter*): the
#     vector form of a table lookup, whose addresses come from data;
#   - xlat (a byte table lookup);
#   - an integer division (div, idiv), whose time depends on its operands
#     on x86, outside the functions listed in DIV_PUBLIC below, which divide
#     public values only (each with the reason).
# It then lists, for review, every kernel function that loads through an
# index register, with the count: the vector backends' ones must be the
# Keccak state's byte access (sponge offsets, public) and the NTT's zeta
# tables (loop counters); see SECURITY.md ("Constant time") for the review.
set -euo pipefail

lib=$1
objdump=${2:-objdump}
[[ -f $lib ]] || { echo "FAIL: $lib not found" >&2; exit 1; }

# function -> why its divisions only see public values
declare -A DIV_PUBLIC=(
    [mlkem_sample_ntt_matrix_transposed]="matrix positions i / k and i % k of the public matrix A (FIPS 203 Algorithm 13 line 3-7)"
    [mlkem_lanes_wait]="n % rate in fed_next: how many bytes of a fed stream's input (ek's, for H(ek): public) are ready, cut to whole blocks of the sponge's rate (kem/lanes.c)"
)

dis=$(mktemp)
trap 'rm -f "$dis"' EXIT
"$objdump" -d --no-show-raw-insn "$lib" |
    awk '/file format/ { obj = $1; sub(/:$/, "", obj) }
         /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
         /^ +[0-9a-f]+:\t/ { print obj "\t" fn "\t" $0 }' >"$dis"
[[ -s $dis ]] || { echo "FAIL: no disassembly from $objdump" >&2; exit 1; }
echo "ct_static: $(cut -f2 "$dis" | sort -u | wc -l) functions," \
     "$(wc -l <"$dis") instructions in $(basename "$lib")"

bad=0
if grep -P '\t(v?p?gather|v?p?scatter)\w*\s|\txlatb?\s' "$dis" >/dev/null; then
    echo "FAIL: gather / scatter / xlat table lookups:" >&2
    grep -P '\t(v?p?gather|v?p?scatter)\w*\s|\txlatb?\s' "$dis" >&2
    bad=1
else
    echo "ok: no gather, scatter or xlat instruction"
fi

while IFS=$'\t' read -r obj fn _; do
    if [[ -n ${DIV_PUBLIC[$fn]+x} ]]; then
        echo "ok: division in $fn ($obj): ${DIV_PUBLIC[$fn]}"
    else
        echo "FAIL: division in $fn ($obj): review it and, if it only sees" \
             "public values, add it to DIV_PUBLIC with the reason" >&2
        bad=1
    fi
done < <(grep -P '\t(div|idiv)[bwlq]?\s' "$dis" | cut -f1,2 | sort -u)

echo "for review: functions with indexed loads (address with an index register):"
grep -P '\t\w+\s.*\(%\w+,%\w+(,[1248])?\)' "$dis" | cut -f1,2 | sort | uniq -c |
    sort -rn | sed 's/^/    /'
exit $bad
