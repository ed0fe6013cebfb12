# SPDX-License-Identifier: Apache-2.0
# test/provider/openssl40.cmake: the provider suites on OpenSSL 4.0, as they
# run on 3.5 (the *_35 tests). Included by test/provider/CMakeLists.txt.
#
# 4.0's libraries are libcrypto.so.4 / libssl.so.4, so LD_LIBRARY_PATH cannot
# swap them in under the 3.0-built programs: test_evp, provider_test_codecs
# and examples/mlkem_evp are built again against $MLKEM_OPENSSL40_PREFIX
# (test/openssl_peers.cmake, targets *_40). The module is the one mlkem.so,
# built against the system 3.0 headers.
#
#   provider_evp_40            test_evp_40 4.0: provider parameters, names,
#                              aliases, OIDs (built in on 4.0), round trips,
#                              bad input, threads, randomness (what feeds
#                              it on 4.0: test_evp_rand.c), configuration
#   provider_evp_instances_40  several library contexts
#   provider_evp_acvp_40       the ACVP vectors (vectors label)
#   provider_codecs_40         DER/PEM byte-identical, and keys crossing to
#                              and from 4.0's built-in ML-KEM
#   provider_cli_interop_40    cli_interop.sh with the 4.0 `openssl`: every
#                              key form both ways, encap/decap across
#                              providers, pkeyutl -encap/-decap
# Without the peer at configure time each of them is a visible skip.
include(${CMAKE_SOURCE_DIR}/test/openssl_peers.cmake)
mlkem_openssl_peer(40 "${MLKEM_OPENSSL40_PREFIX}")

set(_o40_env "MLKEM_PEER=4.0" "MLKEM_OPENSSL40_PREFIX=${MLKEM_OPENSSL40_PREFIX}")
set(_o40_tests provider_evp_40 provider_evp_instances_40 provider_evp_acvp_40
               provider_codecs_40 provider_cli_interop_40)
if(NOT MLKEM_PEER40_FOUND OR NOT TARGET mlkem)
  foreach(t IN LISTS _o40_tests)
    if(t STREQUAL "provider_cli_interop_40")
      set(_o40_labels provider codecs cli openssl40 host-only no-tsan)
    else()
      set(_o40_labels provider openssl40)
    endif()
    mlkem_peer_missing_test(${t} 40 "${MLKEM_OPENSSL40_PREFIX}"
                            LABELS ${_o40_labels})
  endforeach()
  return()
endif()

mlkem_peer_clone(test_evp 40)
mlkem_add_test(provider_evp_40
  COMMAND test_evp_40 4.0 ${_moddir} ${_suites} LABELS provider openssl40
  ENV ${_o40_env})
mlkem_add_test(provider_evp_instances_40
  COMMAND test_evp_40 4.0 ${_moddir} instances LABELS provider openssl40
  ENV ${_o40_env})
mlkem_add_test(provider_evp_acvp_40
  COMMAND test_evp_40 4.0 ${_moddir} acvp LABELS provider vectors openssl40
  ENV ${_o40_env})

mlkem_peer_clone(provider_test_codecs 40)
mlkem_add_test(provider_codecs_40
  COMMAND provider_test_codecs_40 $<TARGET_FILE:mlkem>
  LABELS provider codecs openssl40 ENV ${_o40_env})

if(TARGET mlkem_evp)
  mlkem_peer_clone(mlkem_evp 40)
  set(_mlkem_evp40 $<TARGET_FILE:mlkem_evp_40>)
else()
  set(_mlkem_evp40 "")
endif()
mlkem_add_test(provider_cli_interop_40
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_interop.sh
          $<TARGET_FILE_DIR:mlkem> "${_mlkem_evp40}"
  LABELS provider codecs cli openssl40 host-only no-tsan TIMEOUT 600
  ENV "MLKEM_SANITIZE=${MLKEM_SANITIZE}" ${_o40_env})
