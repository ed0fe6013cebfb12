# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# daemons.sh: start and stop the Debian servers (apache2, haproxy, stunnel)
# in the TLS shell tests; sourced after lib.sh.
#
# (random_port comes from test/common/lib.sh.)
#   wait_port PORT PID   wait (<= 10 s) until PORT accepts, while PID lives
#   start_daemon NAME PORTVAR CMD...
#                        run CMD (in the foreground under `timeout`) after
#                        choosing a port into $PORTVAR; CMD may use it, as
#                        "$PORT" in a function CMD writes the config from.
#                        Retries with a new port when the first is taken.
#                        Sets DAEMON_PID; output in $TLS_TMP/NAME.log.
#   stop_daemon PID      SIGTERM, wait
#   page_35 PORT GROUPS OUT
#                        OpenSSL 3.5's own s_client offering only GROUPS
#                        sends GET / to 127.0.0.1:PORT with -trace; output
#                        in OUT. OPENSSL_CONF and OPENSSL_MODULES are
#                        dropped: no provider, 3.5's built-in ML-KEM only
#   hello_of FILE        the response body line "post-quantum hello" is in FILE
#   expect_served PORT GROUPS WANT OUT WHAT
#                        page_35, then ok when the page came back over
#                        ServerHello group WANT (IANA number), else fail


wait_port() {
    local port=$1 pid=$2
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# start_daemon NAME WRITE_CONF CMD...: WRITE_CONF is a function called with
# $PORT set, before each attempt.
start_daemon() {
    local name=$1 write=$2
    shift 2
    DAEMON_PID=
    for _ in 1 2 3 4 5; do
        PORT=$(random_port) || break
        "$write"
        timeout -k 5 "$SERVER_LIFETIME" "$@" >"$TLS_TMP/$name.log" 2>&1 </dev/null &
        DAEMON_PID=$!
        TLS_PIDS+=("$DAEMON_PID")
        wait_port "$PORT" "$DAEMON_PID" && return 0
        stop_daemon "$DAEMON_PID"
        DAEMON_PID=
        grep -qi 'address already in use' "$TLS_TMP/$name.log" || break
    done
    echo "FAIL: $name did not start:" >&2
    cat "$TLS_TMP/$name.log" >&2
    return 1
}

stop_daemon() {
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 0
}

page_35() {
    local port=$1 groups=$2 out=$3
    printf 'GET / HTTP/1.0\r\nHost: localhost\r\n\r\n' |
        env -u OPENSSL_CONF -u OPENSSL_MODULES LD_LIBRARY_PATH="$O35_PREFIX/lib" \
            timeout -k 2 "$CLIENT_TIMEOUT" "$O35_PREFIX/bin/openssl" s_client -connect "127.0.0.1:$port" \
            -servername localhost -groups "$groups" -tls1_3 -trace -ign_eof \
            >"$out" 2>&1
}

hello_of() { grep -q 'post-quantum hello' "$1"; }

expect_served() {
    local port=$1 groups=$2 want=$3 out=$4 what=$5 g
    page_35 "$port" "$groups" "$out"
    g=$(trace_group "$out")
    if [ "$g" = "$want" ] && hello_of "$out"; then
        ok "$what: page served, ServerHello group $want"
    else
        fail "$what: group '$g' (want $want); $(tail -n 5 "$out")"
    fi
}
