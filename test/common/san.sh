# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034
# san.sh: run uninstrumented programs (openssl 3.0 / 3.5, nginx, curl) that
# load a sanitizer-built mlkem.so, and fail on any sanitizer report.
# Sourced by test/tls/lib.sh and test/provider/cli_*.sh (bash).
#
# An ASan-instrumented shared object can only be loaded by a process whose
# first library is the ASan runtime ("ASan runtime does not come first in
# initial library list"). In a sanitizer build, test/CMakeLists.txt passes
#   MLKEM_SANITIZE      the -fsanitize list ("address,undefined");
#   MLKEM_SAN_PRELOAD   the compiler's shared sanitizer runtime, found at
#                       configure time with -print-file-name (gcc:
#                       libasan.so; clang: libclang_rt.asan-x86_64.so);
#   MLKEM_SAN_CC        the C compiler, for the shim below;
# and san_wrap turns a program into a wrapper script that execs it with
#   LD_PRELOAD     the runtime, then san-shim.so (san_make_shim);
#   ASAN_OPTIONS   detect_leaks=0   (leaks of the openssl/nginx/curl
#                                    programs are not ours; our own leak
#                                    checks run in the instrumented C tests)
#                  halt_on_error=1, abort_on_error=0 (the run stops and exits
#                                    non-zero on the first report)
#                  log_path=<tmp>/san-log/asan (reports: asan.<pid>)
#   UBSAN_OPTIONS  print_stacktrace=1, halt_on_error=1, log_path as ASan's
#   MLKEM_SAN_UBSAN_LOG  <tmp>/san-log/ubsan-report (see san_make_shim)
# Everything else the test starts (our instrumented C programs, which keep
# the preset's options, leak checking included) gets log_path appended to
# its ASAN_OPTIONS / UBSAN_OPTIONS: a report is never lost in a stderr that
# the test discards or expects to hold an error.
#
# san_check fails the test on "ERROR: AddressSanitizer", "ERROR:
# LeakSanitizer" or "runtime error:" in san-log/ or in any file the test
# captured output in (gcc's libubsan, loaded next to libasan, ignores
# log_path and writes to stderr: its __sanitizer_set_report_path call binds
# to libasan's copy; the shim catches those reports for the wrapped
# programs, the captured-file scan for our own C programs).
#
# In a normal build (MLKEM_SANITIZE empty) san_wrap prints the program
# unchanged and san_check always passes.
#
# Functions:
#   san_init <dir>      set up <dir>/san-log, <dir>/san-bin, the shim, and
#                       the exported options; returns 2 (reason in SAN_WHY)
#                       when a sanitizer build has nothing usable to preload
#   san_wrap <prog>     the path to run <prog> by (absolute path or name)
#   san_check [<dir>]   0, or print the reports and return 1; <dir>: also
#                       scan the files under it (the test's captured output)

SAN_LOG=
SAN_BIN=
SAN_WHY=
SAN_PRELOAD=
SAN_SHIM=
SAN_PATTERN='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:'

san_on() { [ -n "${MLKEM_SANITIZE:-}" ]; }

san_init() {
    local dir=$1 f
    san_on || return 0
    case ",$MLKEM_SANITIZE," in
        *,address,*)
            [ -n "${MLKEM_SAN_PRELOAD:-}" ] || {
                SAN_WHY="ASan build but no ASan runtime to preload (MLKEM_SAN_PRELOAD unset)"
                return 2
            }
            ;;
    esac
    SAN_LOG=$dir/san-log
    SAN_BIN=$dir/san-bin
    mkdir -p "$SAN_LOG" "$SAN_BIN" || return 1
    # nginx workers run as "nobody" and must be able to write their reports.
    chmod 1777 "$SAN_LOG"
    SAN_PRELOAD=
    if [ -n "${MLKEM_SAN_PRELOAD:-}" ]; then
        IFS=: read -ra _san_libs <<<"$MLKEM_SAN_PRELOAD"
        for f in "${_san_libs[@]}"; do
            [ -f "$f" ] || {
                SAN_WHY="sanitizer runtime $f (MLKEM_SAN_PRELOAD) not found"
                return 2
            }
        done
        san_make_shim "$dir" || return 2
        SAN_PRELOAD=$MLKEM_SAN_PRELOAD:$SAN_SHIM
    fi
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$SAN_LOG/asan"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$SAN_LOG/ubsan"
    return 0
}

# san_make_shim <dir>: build <dir>/san-shim.so (uninstrumented, with
# MLKEM_SAN_CC, else cc), preloaded right after the runtime. It does two
# things:
#  1. A preloaded runtime initializes on the first malloc() or in its own
#     constructor, which the loader runs after those of all the program's
#     libraries. curl's libp11-kit (through gnutls) makes that first
#     malloc() in its constructor, inside newlocale(), holding glibc's
#     setlocale lock; ASan's initialization then calls dlerror() ->
#     dcgettext(), which takes that lock again and leaves it broken: curl
#     hangs in its first setlocale() (glibc 2.36, gcc 12's and clang 14's
#     runtimes alike). The shim is linked with -z initfirst, so the loader
#     runs its constructor before any other; that constructor's malloc()
#     initializes the runtime there, with no lock held.
#  2. It defines __ubsan_on_report, the hook UBSan calls for each report
#     (the runtime's own definition is weak, and the shim precedes libubsan,
#     which mlkem.so brings in later), and appends the report's location and
#     message as a "runtime error:" line to $MLKEM_SAN_UBSAN_LOG.<pid>:
#     gcc's libubsan prints to stderr whatever UBSAN_OPTIONS says (above).
san_make_shim() {
    local dir=$1 cc=${MLKEM_SAN_CC:-cc}
    SAN_SHIM=$dir/san-shim.so
    cat >"$dir/san-shim.c" <<'EOF'
/* Generated by test/common/san.sh (san_make_shim); see there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *volatile mlkem_san_shim_block;

/* Runs first (-z initfirst): initialize the preloaded runtime now. */
__attribute__((constructor)) static void mlkem_san_shim_init(void)
{
    mlkem_san_shim_block = malloc(1);
    free(mlkem_san_shim_block);
}

typedef void mlkem_san_report_fn(const char **kind, const char **msg,
                                 const char **file, unsigned *line,
                                 unsigned *col, char **addr);

void __ubsan_on_report(void);
void __ubsan_on_report(void)
{
    const char *log = getenv("MLKEM_SAN_UBSAN_LOG");
    const char *kind = "?", *msg = "?", *file = "?";
    unsigned line = 0, col = 0;
    char *addr = NULL, path[4096], buf[4096];
    mlkem_san_report_fn *get = NULL;
    void *h;
    int fd, n;

    if (log == NULL || *log == '\0')
        return;
    /* libubsan arrives with mlkem.so, in a local scope: ask it by name. */
    *(void **)&get = dlsym(RTLD_DEFAULT, "__ubsan_get_current_report_data");
    if (get == NULL
        && (h = dlopen("libubsan.so.1", RTLD_LAZY | RTLD_NOLOAD)) != NULL)
        *(void **)&get = dlsym(h, "__ubsan_get_current_report_data");
    if (get != NULL)
        get(&kind, &msg, &file, &line, &col, &addr);
    snprintf(path, sizeof(path), "%s.%ld", log, (long)getpid());
    n = snprintf(buf, sizeof(buf), "%s:%u:%u: runtime error: %s [%s]\n",
                 file, line, col, msg, kind);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(buf))
        n = (int)sizeof(buf) - 1;
    if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
        if (write(fd, buf, (size_t)n) < 0) {
            /* nothing more to do: the report is on stderr too */
        }
        close(fd);
    }
}
EOF
    "$cc" -shared -fPIC -O1 -Wl,-z,initfirst -o "$SAN_SHIM" "$dir/san-shim.c" \
        2>"$dir/san-shim.err" || {
        SAN_WHY="cannot build the preload shim with $cc: $(head -3 "$dir/san-shim.err")"
        return 1
    }
}

san_wrap() {
    local prog=$1 path name w
    if ! san_on || [ -z "$SAN_BIN" ]; then
        printf '%s\n' "$prog"
        return 0
    fi
    path=$(command -v "$prog") || { printf '%s\n' "$prog"; return 0; }
    name=$(basename "$path")
    w=$SAN_BIN/$name
    # Two programs of one name (3.0's and 3.5's openssl) get two wrappers.
    while [ -e "$w" ] && ! grep -qxF "exec '$path' \"\$@\"" "$w"; do
        w=${w}_
    done
    if [ ! -e "$w" ]; then
        cat >"$w" <<EOF
#!/bin/sh
# $path with the sanitizer runtime preloaded (test/common/san.sh)
LD_PRELOAD="$SAN_PRELOAD\${LD_PRELOAD:+:\$LD_PRELOAD}"
LD_PRELOAD=\${LD_PRELOAD#:}
ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:log_path=$SAN_LOG/asan
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$SAN_LOG/ubsan
MLKEM_SAN_UBSAN_LOG=$SAN_LOG/ubsan-report
export LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS MLKEM_SAN_UBSAN_LOG
exec '$path' "\$@"
EOF
        chmod 755 "$w"
    fi
    printf '%s\n' "$w"
}

san_check() {
    local scan=${1:-} f bad=0
    san_on && [ -n "$SAN_LOG" ] || return 0
    for f in "$SAN_LOG"/*; do
        [ -f "$f" ] || continue
        if grep -q -E "$SAN_PATTERN" "$f"; then
            echo "FAIL: sanitizer report in ${f##*/}:" >&2
            bad=1
        else
            echo "note: sanitizer output in ${f##*/}:" >&2
        fi
        sed 's/^/    /' "$f" >&2
    done
    if [ -n "$scan" ] && [ -d "$scan" ]; then
        while IFS= read -r f; do
            echo "FAIL: sanitizer report in captured output ${f#"$scan"/}:" >&2
            grep -E -A30 "$SAN_PATTERN" "$f" | sed 's/^/    /' >&2
            bad=1
        done < <(grep -r -l -E "$SAN_PATTERN" "$scan" \
            --exclude-dir=san-log --exclude-dir=san-bin \
            --exclude='san-shim.*' 2>/dev/null)
    fi
    return $bad
}
