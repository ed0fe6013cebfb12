# SPDX-License-Identifier: Apache-2.0
# test/tls/openssl36.cmake: the TLS suites on OpenSSL 3.6 (Debian sid's,
# scripts/openssl-peer.sh 3.6), as they run on 3.5. Included by
# test/tls/CMakeLists.txt.
#
#   tls_interop36       3.0 + provider <-> OpenSSL 3.6's built-in groups
#                       (s_server / s_client), every group, both directions
#   tls_on36            the 3.0-built mlkem.so loaded into OpenSSL 3.6 next
#                       to its own groups (the 3.0-built test programs run on
#                       3.6's libssl.so.3 through LD_LIBRARY_PATH)
#   tls_hybrid_cross36  every KEM of ours against 3.6's built-in one of the
#                       same name, both ways, outside TLS
# The scripts are the 3.5 ones with MLKEM_PEER=3.6. Without the peer at
# configure time each is a visible skip.
include(${CMAKE_SOURCE_DIR}/test/openssl_peers.cmake)
mlkem_peer_prefix(3.6 _o36)

if(NOT _o36)
  foreach(t tls_interop36 tls_on36 tls_hybrid_cross36)
    mlkem_peer_missing_test(${t} 36 "${_o36}" LABELS tls openssl36)
  endforeach()
  return()
endif()

set(_sh_env36 ${_sh_env} "MLKEM_PEER=3.6" "MLKEM_OPENSSL36_PREFIX=${_o36}")
mlkem_add_test(tls_interop36
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_interop35.sh
               LABELS tls openssl36 ${_host} TIMEOUT 600 ENV ${_sh_env36})
mlkem_add_test(tls_on36
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_on35.sh
               LABELS tls openssl36 ${_host} TIMEOUT 600 ENV ${_sh_env36})
mlkem_add_test(tls_hybrid_cross36 COMMAND test_hybrid_cross ${_provdir}
               LABELS tls openssl36 TIMEOUT 60
               ENV "LD_LIBRARY_PATH=${_o36}/lib" ${_sh_env36})
