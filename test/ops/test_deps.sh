#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_deps.sh: scripts/deps.sh against a fake dpkg database, without
# network or root. dpkg, dpkg-query, apt-get and sudo are small scripts on
# PATH that read and log to a temporary directory; the policy-rc.d path is
# moved there with MLKEM_POLICY_RC_D. Cases:
#   1. everything installed                     -> status 0, no apt-get
#   2. multiarch: libssl-dev for amd64 + arm64  -> status 0, no apt-get
#      (`dpkg-query -W libssl-dev` prints two statuses; the old check read
#      them as one string and reinstalled libssl-dev on every run)
#   3. libssl-dev only for arm64                -> apt-get installs libssl-dev
#   4. a package missing, policy-rc.d present   -> status 0 (the old EXIT
#      trap returned 1 here), the file left untouched
#   5. a package missing, no policy-rc.d        -> one is in place while
#      apt-get runs ("exit 101"), removed afterwards, status 0
#   6. apt-get fails                            -> deps.sh fails, the
#      policy-rc.d it made is removed
#   7. the sets: --build is exactly build-essential cmake pkg-config
#      libssl-dev (a package build needs no test peer); --test and --demo
#      add to it, --aarch64 adds the cross set; with nothing installed,
#      --build asks apt-get for the build set alone; an unknown option
#      is refused (status 2)
#   8. README.md's table of the sets names exactly the packages deps.sh
#      installs for each
# Usage: test_deps.sh [SOURCE_DIR]
set -u
src=${1:-${MLKEM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
deps=$src/scripts/deps.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../common/lib.sh
source "$(dirname "$0")/../common/lib.sh"

# ---- the fake tools --------------------------------------------------------
bin=$tmp/bin
mkdir -p "$bin"
# dpkg-query -W -f=FORMAT PKG: one FORMAT per "PKG ARCH" line of $FAKE_DB
# (arch-qualified PKG:ARCH matches that architecture only), as dpkg-query
# does for a Multi-Arch: same package installed for several architectures.
cat >"$bin/dpkg-query" <<'SH'
#!/usr/bin/env bash
fmt= pkg=
for a in "$@"; do
    case "$a" in -W) ;; -f=*) fmt=${a#-f=} ;; -*) ;; *) pkg=$a ;; esac
done
want_arch=
case "$pkg" in *:*) want_arch=${pkg#*:}; pkg=${pkg%%:*} ;; esac
found=0
while read -r name arch; do
    [ "$name" = "$pkg" ] || continue
    [ -z "$want_arch" ] || [ "$arch" = "$want_arch" ] || continue
    out=${fmt//'${Status}'/install ok installed}
    out=${out//'${Architecture}'/$arch}
    printf '%b' "$out"
    found=1
done <"$FAKE_DB"
[ "$found" = 1 ] || { echo "dpkg-query: no packages found matching $1" >&2; exit 1; }
SH
cat >"$bin/dpkg" <<'SH'
#!/bin/sh
[ "$1" = --print-architecture ] && { echo amd64; exit 0; }
echo "fake dpkg: unexpected $*" >&2; exit 2
SH
# apt-get: logs its arguments and, for install, whether policy-rc.d is there.
cat >"$bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
case " $* " in
    *" install "*)
        if [ -f "$MLKEM_POLICY_RC_D" ]; then
            echo "policy during install: $(tail -n 1 "$MLKEM_POLICY_RC_D")" >>"$FAKE_LOG"
        else
            echo "policy during install: none" >>"$FAKE_LOG"
        fi
        exit "${FAKE_APT_RC:-0}" ;;
esac
exit 0
SH
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
chmod 755 "$bin"/*

all_pkgs() { # the package list deps.sh checks with no set named, one per line
    PATH=$bin:$PATH bash "$deps" --list
}
# run_deps NAME: run deps.sh with the fake tools; status in $rc, log in $log.
run_deps() {
    log=$tmp/$1.log
    : >"$log"
    FAKE_DB=$tmp/db FAKE_LOG=$log MLKEM_POLICY_RC_D=$tmp/policy-rc.d \
        PATH=$bin:$PATH bash "$deps" >"$tmp/$1.out" 2>&1
    rc=$?
}
db_all() { all_pkgs | while read -r p; do
    case "$p" in ca-certificates) echo "$p all" ;; *) echo "$p amd64" ;; esac; done; }

[ "$(all_pkgs | wc -l)" -ge 10 ] || { echo "FAIL: cannot read the package list of $deps" >&2; exit 1; }

# 1. everything installed
db_all >"$tmp/db"
rm -f "$tmp/policy-rc.d"
run_deps installed
if [ "$rc" = 0 ] && [ ! -s "$log" ]; then ok "all installed: status 0, apt-get not run"
else fail "all installed: status $rc, log: $(cat "$log" "$tmp/installed.out")"; fi

# 2. multiarch: libssl-dev also for arm64
{ db_all; echo "libssl-dev arm64"; } >"$tmp/db"
run_deps multiarch
if [ "$rc" = 0 ] && [ ! -s "$log" ]; then ok "libssl-dev for amd64 and arm64: nothing reinstalled"
else fail "multiarch: status $rc, log: $(cat "$log" "$tmp/multiarch.out")"; fi

# 3. libssl-dev for arm64 only: the native one is missing
{ db_all | grep -v '^libssl-dev '; echo "libssl-dev arm64"; } >"$tmp/db"
run_deps foreign
if [ "$rc" = 0 ] && grep -q '^apt-get install .* libssl-dev$' "$log"; then
    ok "libssl-dev for arm64 only: the native one is installed"
else fail "foreign only: status $rc, log: $(cat "$log" "$tmp/foreign.out")"; fi

# 4. nginx missing, policy-rc.d already there (containers)
db_all | grep -v '^nginx ' >"$tmp/db"
printf '#!/bin/sh\n# the container'"'"'s own\nexit 101\n' >"$tmp/policy-rc.d"
cp "$tmp/policy-rc.d" "$tmp/policy.orig"
run_deps existing
if [ "$rc" = 0 ] && grep -q '^apt-get install .* nginx$' "$log"; then
    ok "policy-rc.d present, nginx missing: installed, status 0"
else fail "policy-rc.d present: status $rc (want 0), log: $(cat "$log" "$tmp/existing.out")"; fi
if cmp -s "$tmp/policy-rc.d" "$tmp/policy.orig"; then ok "the existing policy-rc.d is untouched"
else fail "the existing policy-rc.d was changed or removed"; fi

# 5. nginx missing, no policy-rc.d
rm -f "$tmp/policy-rc.d"
run_deps made
if [ "$rc" = 0 ] && grep -qx 'policy during install: exit 101' "$log"; then
    ok "no policy-rc.d: one says 'exit 101' while apt-get runs, status 0"
else fail "no policy-rc.d: status $rc, log: $(cat "$log" "$tmp/made.out")"; fi
if [ ! -e "$tmp/policy-rc.d" ]; then ok "the policy-rc.d deps.sh made is removed"
else fail "deps.sh left its policy-rc.d behind"; fi

# 6. apt-get fails
FAKE_APT_RC=100 run_deps aptfail
export -n FAKE_APT_RC 2>/dev/null
if [ "$rc" != 0 ]; then ok "apt-get failing fails deps.sh (status $rc)"
else fail "apt-get failed but deps.sh returned 0"; fi
if [ ! -e "$tmp/policy-rc.d" ]; then ok "policy-rc.d removed after the failure too"
else fail "policy-rc.d left behind after apt-get failed"; fi

# 7. the sets
list() { PATH=$bin:$PATH bash "$deps" "$@" --list | tr '\n' ' ' | sed 's/ $//'; }
b=$(list --build)
[ "$b" = "build-essential cmake pkg-config libssl-dev" ] &&
    ok "--build: $b" || fail "--build lists '$b'"
t=$(list --test) d=$(list --demo) a=$(list --build --aarch64)
case "$t" in "$b "*nginx*lintian*rpm*librsvg2-bin*) ok "--test: the build set, then the peers and tools" ;;
    *) fail "--test lists '$t'" ;; esac
[ "$d" = "$b openssl perl" ] && ok "--demo: the build set, openssl, perl" || fail "--demo lists '$d'"
[ "$a" = "$b gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user libssl-dev:arm64 libbenchmark-dev:arm64" ] &&
    ok "--build --aarch64: the build set and the cross set" || fail "--build --aarch64 lists '$a'"
[ "$(all_pkgs | sort)" = "$(list --build --test --demo | tr ' ' '\n' | sort)" ] &&
    ok "no set named: build, test and demo" || fail "no set named lists $(all_pkgs | tr '\n' ' ')"
[ "$(all_pkgs | sort | uniq -d)" = "" ] && ok "each package listed once" ||
    fail "listed twice: $(all_pkgs | sort | uniq -d)"
: >"$tmp/db"
log=$tmp/build.log; : >"$log"
FAKE_DB=$tmp/db FAKE_LOG=$log MLKEM_POLICY_RC_D=$tmp/policy-rc.d PATH=$bin:$PATH \
    bash "$deps" --build >"$tmp/build.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -qx 'apt-get install -y -qq --no-install-recommends build-essential cmake pkg-config libssl-dev' "$log"; then
    ok "nothing installed, --build: apt-get installs the build set alone"
else fail "--build on an empty system: status $rc, log: $(cat "$log" "$tmp/build.out")"; fi
PATH=$bin:$PATH bash "$deps" --bogus >"$tmp/bogus.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "unknown option '--bogus'" "$tmp/bogus.out" &&
    ok "an unknown option: status 2, named" || fail "--bogus: status $rc, $(cat "$tmp/bogus.out")"

# 8. README.md lists each set as deps.sh has it.
readme=$src/README.md
row() { grep -m1 "^| $1" "$readme" | sed 's/`[^`]*\.md`//g; s/scripts\/[a-z.]*//g' | grep -o '`[^`]*`' | tr -d '`' |
        tr ' ' '\n' | grep -v '^--' | grep . | sort -u | tr '\n' ' '; }
want_b=$(list --build | tr ' ' '\n' | sort -u | tr '\n' ' ')
got_b=$(row 'build, and the packages')
[ "$got_b" = "$want_b" ] && ok "README's build row: $got_b" || fail "README's build row '$got_b', deps.sh --build '$want_b'"
for set in test demo; do
    want=$(list --$set | tr ' ' '\n' | sort -u | tr '\n' ' ')
    got=$(printf '%s%s' "$got_b" "$(row "$set ")" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
    [ "$got" = "$want" ] && ok "README's $set row (with the build set): the packages of deps.sh --$set" ||
        fail "README's $set row: '$got', deps.sh --$set: '$want'"
done

test_finish
