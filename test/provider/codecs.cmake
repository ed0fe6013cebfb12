# SPDX-License-Identifier: Apache-2.0
# test/provider/codecs.cmake: tests of the key encoders and decoders
# (provider/encoders.c, decoders.c, codecs_der.c), the CLI interop scripts, and
# the example program. Included by test/provider/CMakeLists.txt.
#
#   provider_codecs_der   unit test of the DER writer/reader (no provider)
#   provider_codecs_30    OSSL_ENCODER/OSSL_DECODER/PEM through mlkem.so on
#                         the system OpenSSL 3.0
#   provider_codecs_35    the same binary on OpenSSL 3.5 (LD_LIBRARY_PATH),
#                         plus keys crossing to and from 3.5's own ML-KEM;
#                         skipped (77) without $MLKEM_OPENSSL35_PREFIX
#   provider_cli_30       the 3.0 `openssl` CLI with -provider mlkem
#                         (genpkey, pkey -pubout/-text, DER/PEM, encrypted
#                         keys) and examples/mlkem_evp for encap/decap
#   provider_cli_interop  the 3.5 CLI: our provider vs 3.5's ML-KEM, each
#                         direction in separate invocations (skip 77 without
#                         the 3.5 build)
#   example_mlkem_evp     examples/mlkem_evp demo mode
# The CLI scripts run the host's openssl on mlkem.so: host-only, and no-tsan
# (TSan's runtime cannot arrive in openssl by dlopen).

add_executable(provider_test_codecs_der
  ${CMAKE_CURRENT_LIST_DIR}/test_codecs_der.c
  ${CMAKE_SOURCE_DIR}/provider/codecs_der.c)
target_link_libraries(provider_test_codecs_der PRIVATE mlkem_kernel mlkem_test_util
                      OpenSSL::Crypto)
mlkem_add_test(provider_codecs_der COMMAND provider_test_codecs_der
  LABELS provider codecs)

if(TARGET mlkem)
  add_executable(provider_test_codecs ${CMAKE_CURRENT_LIST_DIR}/test_codecs.c)
  target_link_libraries(provider_test_codecs PRIVATE mlkem_test_util
                        OpenSSL::Crypto)
  add_dependencies(provider_test_codecs mlkem)

  mlkem_add_test(provider_codecs_30
    COMMAND provider_test_codecs $<TARGET_FILE:mlkem>
    LABELS provider codecs)
  mlkem_add_test(provider_codecs_35
    COMMAND provider_test_codecs --openssl35 $<TARGET_FILE:mlkem>
    LABELS provider codecs openssl35
    ENV "LD_LIBRARY_PATH=${MLKEM_OPENSSL35_PREFIX}/lib")

  # The CLI scripts need the example program for encap/decap on 3.0.
  if(TARGET mlkem_evp)
    set(_mlkem_evp $<TARGET_FILE:mlkem_evp>)
  else()
    set(_mlkem_evp "")
  endif()
  find_program(MLKEM_OPENSSL_CLI openssl)
  mlkem_add_test(provider_cli_30
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_30.sh
            $<TARGET_FILE_DIR:mlkem> "${_mlkem_evp}"
    LABELS provider codecs cli host-only no-tsan TIMEOUT 600
    ENV "OPENSSL=${MLKEM_OPENSSL_CLI}" "MLKEM_SANITIZE=${MLKEM_SANITIZE}")
  mlkem_add_test(provider_cli_interop
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_interop.sh
            $<TARGET_FILE_DIR:mlkem> "${_mlkem_evp}"
    LABELS provider codecs cli openssl35 host-only no-tsan TIMEOUT 600
    ENV "MLKEM_SANITIZE=${MLKEM_SANITIZE}")

  if(TARGET mlkem_evp)
    mlkem_add_test(example_mlkem_evp
      COMMAND mlkem_evp --provider-path $<TARGET_FILE_DIR:mlkem>
      LABELS provider examples)
    # It must have used our provider and agreed on the secret.
    set_tests_properties(example_mlkem_evp PROPERTIES PASS_REGULAR_EXPRESSION
      "generated ML-KEM-768 key pair \\(provider mlkem.*OK: both sides hold the same shared secret")
  endif()
endif()
