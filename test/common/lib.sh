# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# test/common/lib.sh: what the shell tests share (sourced, bash). The shell
# twin of test_util.h: one way to report, one peer resolver, one provider
# configuration.
#
#   ok MSG / fail MSG      a passed / failed check ("ok   MSG" on stdout,
#                          "FAIL: MSG" on stderr); fail counts in TEST_FAILS
#   skip MSG               "SKIP: MSG" and exit 77 (a visible skip, which
#                          scripts/test.sh counts as a failure)
#   test_finish            exit 1 with the count if any check failed, else
#                          print PASS and exit 0
#   peer_prefix REL        the prefix of the OpenSSL peer REL (3.5, 4.0):
#                          what `scripts/openssl-peer.sh REL --print-prefix`
#                          prints (MLKEM_OPENSSL<NN>_PREFIX or the default
#                          cache, checked to run and to be release REL);
#                          empty when there is none
#   write_provider_cnf FILE DIR [LINE...]
#                          an openssl.cnf activating the default provider
#                          and mlkem.so from DIR, each LINE added to mlkem's
#                          section (e.g. "ml-kem.output_formats = seed-only")
#   random_port            a TCP port on 127.0.0.1 that nothing listens on
#                          (a server may still lose a race for it: retry)

TEST_FAILS=0
TEST_LIB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

ok() { echo "ok   $*"; }
fail() { echo "FAIL: $*" >&2; TEST_FAILS=$((TEST_FAILS + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
test_finish() {
    if [ "$TEST_FAILS" -ne 0 ]; then
        echo "FAIL: $TEST_FAILS failure(s)" >&2
        exit 1
    fi
    echo "PASS"
    exit 0
}

peer_prefix() {
    "$TEST_LIB_ROOT/scripts/openssl-peer.sh" "$1" --print-prefix 2>/dev/null || true
}

write_provider_cnf() {
    local file=$1 dir=$2 line
    shift 2
    {
        printf '%s\n' "openssl_conf = openssl_init" "[openssl_init]" \
            "providers = provider_sect" "[provider_sect]" \
            "default = default_sect" "mlkem = mlkem_sect" "[default_sect]" \
            "activate = 1" "[mlkem_sect]" "module = $dir/mlkem.so" "activate = 1"
        for line in "$@"; do
            printf '%s\n' "$line"
        done
    } >"$file"
}

random_port() {
    local p
    for _ in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}
