#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/openssl35.sh - the OpenSSL 3.5 peer, cached outside the clone;
# kept for the callers that know it by this name. It is
#   scripts/openssl-peer.sh 3.5 [--print-prefix]
# (same prefix, MLKEM_OPENSSL35_PREFIX / _VERSION / _BUILDDIR, and output;
# see that script for the details).
exec "$(dirname "$0")/openssl-peer.sh" 3.5 "$@"
