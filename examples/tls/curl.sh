#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# curl.sh: fetch a URL over post-quantum TLS 1.3 (X25519MLKEM768) with
# Debian 12's curl (OpenSSL 3.0) and the mlkem provider.
#
#   OPENSSL_CONF=/etc/ssl/openssl-pq.cnf ./curl.sh https://example.org/
#
# --curves sets the TLS groups for this transfer (it overrides the Groups
# line of openssl.cnf); X25519MLKEM768 alone makes the transfer fail rather
# than fall back to a classical group, so a success proves the key exchange.
# Add ":x25519" to allow the fallback. curl loads OpenSSL's configuration
# from OPENSSL_CONF, or from /etc/ssl/openssl.cnf when openssl-pq.cnf is
# included there (then no variable is needed).
exec curl --curves X25519MLKEM768 "$@"
