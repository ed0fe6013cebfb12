#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# demo.sh: show the mlkem provider at work on this machine.
#   1. installs the missing Debian packages, builds the OpenSSL 3.5 peer
#      (cached outside the clone) and mlkem.so (CMake preset "default");
#   2. the system's OpenSSL 3.0 lists the provider;
#   3. OpenSSL 3.5's command line, with our provider preferred, generates an
#      ML-KEM-768 key, encapsulates to it and decapsulates; the secrets match;
#   4. OpenSSL 3.0 (which has no `pkeyutl -encap`) does the same through the
#      example program examples/mlkem_evp.c, across the 3.5 key files;
#   5. a TLS 1.3 handshake on OpenSSL 3.0 over X25519MLKEM768, the group
#      read from the server's answer by mlkem-check;
#   6. mlkem-speed (`openssl speed` for ML-KEM): on the system's OpenSSL 3.0,
#      then on 3.5 with the built-in ML-KEM-768 beside ours.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

step "Installing what is missing, building the OpenSSL 3.5 peer and mlkem.so"
scripts/deps.sh --demo
o35=$(scripts/openssl35.sh | tail -n 1)
cmake --preset default >/dev/null
cmake --build --preset default --target mlkem mlkem_evp mlkem-check mlkem-speed >/dev/null
mods=$root/build/default/provider
example=$root/build/default/examples/mlkem_evp
tools=$root/build/default/tools
work=$(mktemp -d)
trap 'rm -rf "$work"; [[ -n "${srv_pid:-}" ]] && kill "$srv_pid" 2>/dev/null; true' EXIT
cd "$work"

openssl35() { LD_LIBRARY_PATH=$o35/lib "$o35/bin/openssl" "$@"; }
ours=(-provider-path "$mods" -provider mlkem -provider default -propquery '?provider=mlkem')

step "OpenSSL $(openssl version | cut -d' ' -f2) (the system's) loads the provider"
show openssl list -providers -provider-path "$mods" -provider mlkem -provider default
# The build info names the kernel backend this CPU got (arch/dispatch.c).
openssl list -providers -verbose -provider-path "$mods" -provider mlkem -provider default |
    grep 'build info: mlkem'

step "OpenSSL 3.5 command line, mlkem provider preferred"
show openssl35 genpkey "${ours[@]}" -algorithm ML-KEM-768 -out priv.pem
show openssl35 pkey "${ours[@]}" -in priv.pem -pubout -out pub.pem
show openssl35 pkeyutl "${ours[@]}" -encap -inkey pub.pem -pubin -out ct.bin -secret ss-encap.bin
show openssl35 pkeyutl "${ours[@]}" -decap -inkey priv.pem -in ct.bin -secret ss-decap.bin
printf 'ciphertext: %s bytes; secrets:\n  encap %s\n  decap %s\n' "$(stat -c %s ct.bin)" \
    "$(od -An -tx1 -v ss-encap.bin | tr -d ' \n')" "$(od -An -tx1 -v ss-decap.bin | tr -d ' \n')"
cmp ss-encap.bin ss-decap.bin && echo "secrets match"

step "OpenSSL 3.0 through EVP (examples/mlkem_evp.c), with the 3.5 key files"
show "$example" --provider-path "$mods" encap pub.pem ct30.bin ss30-encap.bin
show "$example" --provider-path "$mods" decap priv.pem ct30.bin ss30-decap.bin
cmp ss30-encap.bin ss30-decap.bin && echo "OpenSSL 3.0: secrets match"
echo "and OpenSSL 3.5's built-in ML-KEM decapsulates what 3.0 + mlkem encapsulated:"
show openssl35 pkeyutl -decap -inkey priv.pem -in ct30.bin -secret ss35-decap.bin
cmp ss30-encap.bin ss35-decap.bin && echo "secrets match"

step "TLS 1.3 on OpenSSL 3.0 with X25519MLKEM768 (examples/tls/openssl-pq.cnf)"
cnf=$work/openssl-pq.cnf
sed "s|^module   = mlkem.so|module   = $mods/mlkem.so|" "$root/examples/tls/openssl-pq.cnf" > "$cnf"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
    -subj /CN=localhost -keyout key.pem -out cert.pem 2>/dev/null
port=$((20000 + RANDOM % 20000))
OPENSSL_CONF=$cnf openssl s_server -accept "127.0.0.1:$port" -cert cert.pem -key key.pem \
    -tls1_3 -www -quiet >/dev/null 2>&1 &
srv_pid=$!
sleep 0.5
echo "$ OPENSSL_CONF=openssl-pq.cnf mlkem-check localhost:$port"
OPENSSL_CONF=$cnf "$tools/mlkem-check" "localhost:$port" || true
kill "$srv_pid" 2>/dev/null || true; srv_pid=

step "mlkem-speed (openssl speed for ML-KEM): the system's OpenSSL 3.0, then 3.5"
show "$tools/mlkem-speed" -provider-path "$mods" -seconds 1 ML-KEM-768 2>/dev/null
echo "$ LD_LIBRARY_PATH=$o35/lib mlkem-speed -provider-path $mods -seconds 1 ML-KEM-768"
LD_LIBRARY_PATH=$o35/lib "$tools/mlkem-speed" -provider-path "$mods" -seconds 1 ML-KEM-768 2>/dev/null
