# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# bench/callgrind.sh: steady-state instruction counts under valgrind's
# callgrind, for bench/evp_instructions.sh and bench/tls_instructions.sh
# (sourced, bash).
#
#   cg_init                make the scratch directory (removed at exit);
#                          fail when valgrind is missing
#   cg_collect FN... -- PROGRAM ARG...
#                          run PROGRAM under callgrind counting only inside
#                          the functions FN (--toggle-collect) and print the
#                          instructions collected. The caller's environment
#                          reaches PROGRAM (VAR=value cg_collect ...). When
#                          valgrind or PROGRAM fails, or the log has no
#                          count, print the log on stderr and return 1.
#   cg_steady SHORT LONG COUNT ARG...
#                          per unit of work, one-time costs cancelled:
#                          (COUNT ARG... LONG - COUNT ARG... SHORT) /
#                          (LONG - SHORT), where COUNT is the caller's
#                          function printing the count for N units (its last
#                          argument); returns 1 when either run failed.

cg_init() {
    command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; return 1; }
    CG_TMP=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$CG_TMP'" EXIT
}

cg_collect() {
    local toggles=() n
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        toggles+=("--toggle-collect=$1")
        shift
    done
    shift
    if ! valgrind --tool=callgrind --callgrind-out-file="$CG_TMP/cg" \
        "${toggles[@]}" "$@" >/dev/null 2>"$CG_TMP/log"; then
        echo "callgrind: $* failed:" >&2
        cat "$CG_TMP/log" >&2
        return 1
    fi
    n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$CG_TMP/log")
    if [ -z "$n" ]; then
        echo "callgrind: no instruction count in the log of $*:" >&2
        cat "$CG_TMP/log" >&2
        return 1
    fi
    echo "$n"
}

cg_steady() {
    local short=$1 long=$2 a b
    shift 2
    a=$("$@" "$short") || return 1
    b=$("$@" "$long") || return 1
    echo $(( (b - a) / (long - short) ))
}
