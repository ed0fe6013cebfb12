# SPDX-License-Identifier: Apache-2.0
# test/tls/openssl40.cmake: the TLS suites on OpenSSL 4.0, as they run on
# 3.5 (tls_interop35, tls_on35). Included by test/tls/CMakeLists.txt.
#
#   tls_interop40  3.0 + provider <-> OpenSSL 4.0's built-in ML-KEM and
#                  hybrids (s_server / s_client), every group, both
#                  directions, proven by the group each side reports
#   tls_on40       the 3.0-built mlkem.so loaded into OpenSSL 4.0 next to
#                  4.0's own groups: test_capabilities_40 and
#                  test_tls_inproc_40 (built against 4.0's libssl.so.4,
#                  test/openssl_peers.cmake), then 4.0 s_client / s_server
#                  preferring our provider against plain 4.0, both ways
#   tls_hybrid_cross40  every KEM of ours (ML-KEM, the hybrids) against
#                  4.0's built-in one of the same name, both ways, outside
#                  TLS (test_hybrid_cross_40)
# The scripts are the 3.5 ones with MLKEM_PEER=4.0; the group lists are
# theirs (lib.sh, tls_common.c), so a group added there is tested on 4.0 too.
# Without the peer at configure time both are visible skips.
include(${CMAKE_SOURCE_DIR}/test/openssl_peers.cmake)
mlkem_openssl_peer(40 "${MLKEM_OPENSSL40_PREFIX}")

if(NOT MLKEM_PEER40_FOUND)
  foreach(t tls_interop40 tls_on40)
    mlkem_peer_missing_test(${t} 40 "${MLKEM_OPENSSL40_PREFIX}"
                            LABELS tls openssl40 ${_host})
  endforeach()
  mlkem_peer_missing_test(tls_hybrid_cross40 40 "${MLKEM_OPENSSL40_PREFIX}"
                          LABELS tls openssl40)
  return()
endif()

mlkem_peer_clone(test_capabilities 40)
mlkem_peer_clone(test_tls_inproc 40)
mlkem_peer_clone(test_hybrid_cross 40)
set(_sh_env40 "MLKEM_PROVIDER_DIR=${_provdir}"
              "MLKEM_SANITIZE=${MLKEM_SANITIZE}"
              "MLKEM_TLS_BADSHARE=$<TARGET_FILE:test_tls_badshare>"
              "MLKEM_TLS_CAPS=$<TARGET_FILE:test_capabilities_40>"
              "MLKEM_TLS_INPROC=$<TARGET_FILE:test_tls_inproc_40>"
              "MLKEM_PEER=4.0"
              "MLKEM_OPENSSL40_PREFIX=${MLKEM_OPENSSL40_PREFIX}")
mlkem_add_test(tls_interop40
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_interop35.sh
               LABELS tls openssl40 ${_host} TIMEOUT 600 ENV ${_sh_env40})
mlkem_add_test(tls_on40
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_on35.sh
               LABELS tls openssl40 ${_host} TIMEOUT 600 ENV ${_sh_env40})
mlkem_add_test(tls_hybrid_cross40 COMMAND test_hybrid_cross_40 ${_provdir}
               LABELS tls openssl40 TIMEOUT 60 ENV ${_sh_env40})
