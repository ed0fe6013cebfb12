# SPDX-License-Identifier: Apache-2.0
# test/provider/openssl36.cmake: the provider suites on OpenSSL 3.6 (Debian
# sid's, scripts/openssl-peer.sh 3.6), as they run on 3.5. Included by
# test/provider/CMakeLists.txt.
#
# 3.6 keeps libcrypto.so.3, so the 3.0-built programs run on it through
# LD_LIBRARY_PATH, as on 3.5 (4.0 needs rebuilt programs:
# openssl40.cmake). A bounded set, about half a minute: 3.5 and 4.0 run
# the full suites, and 3.6 lies between them.
#
#   provider_evp_36          test_evp 3.6: provider parameters, names,
#                            round trips, bad input, threads, rand, config
#   provider_cli_interop_36  cli_interop.sh with the 3.6 `openssl`: every key
#                            form both ways, encap/decap across providers
# Without the peer at configure time each is a visible skip.
include(${CMAKE_SOURCE_DIR}/test/openssl_peers.cmake)
mlkem_peer_prefix(3.6 _o36)

if(NOT _o36 OR NOT TARGET mlkem)
  foreach(t provider_evp_36 provider_cli_interop_36)
    mlkem_peer_missing_test(${t} 36 "${_o36}" LABELS provider openssl36)
  endforeach()
  return()
endif()

set(_o36_env "MLKEM_PEER=3.6" "MLKEM_OPENSSL36_PREFIX=${_o36}")
mlkem_add_test(provider_evp_36
  COMMAND test_evp 3.6 ${_moddir} ${_suites} LABELS provider openssl36
  ENV "LD_LIBRARY_PATH=${_o36}/lib" ${_o36_env})
if(TARGET mlkem_evp)
  set(_mlkem_evp36 $<TARGET_FILE:mlkem_evp>)
else()
  set(_mlkem_evp36 "")
endif()
mlkem_add_test(provider_cli_interop_36
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_interop.sh
          $<TARGET_FILE_DIR:mlkem> "${_mlkem_evp36}"
  LABELS provider codecs cli openssl36 host-only no-tsan TIMEOUT 600
  ENV "MLKEM_SANITIZE=${MLKEM_SANITIZE}" ${_o36_env})
