# SPDX-License-Identifier: Apache-2.0
# test/openssl_peers.cmake: test programs built a second time against an
# OpenSSL peer release whose libraries have another soname.
#
# OpenSSL 3.5 keeps libcrypto.so.3, so the 3.0-built test programs run on it
# through LD_LIBRARY_PATH. OpenSSL 4.0 ships libcrypto.so.4 / libssl.so.4
# with every symbol versioned OPENSSL_4.0.0: a program linked against 3.0
# keeps loading libcrypto.so.3 whatever LD_LIBRARY_PATH says. The 4.0 tests
# therefore compile the same sources against the peer's headers and link
# its libraries (found through the build RPATH). mlkem.so itself is NOT
# rebuilt: the module under test is the one built against the system 3.0
# headers, loaded into the 4.0 programs (docs/openssl-versions.md).
#
#   mlkem_openssl_peer(<tag> <prefix>)
#       <tag> "40" for 4.0. Sets MLKEM_PEER<tag>_FOUND in the caller when
#       <prefix> holds the headers and shared libraries, and defines the
#       imported targets mlkem_peer<tag>_crypto and mlkem_peer<tag>_ssl.
#   mlkem_peer_clone(<target> <tag>)
#       <target>_<tag>: the same sources, definitions, options and include
#       directories as <target>; OpenSSL::Crypto / OpenSSL::SSL replaced by
#       the peer's, and every library target of ours that links OpenSSL
#       (mlkem_test_util, mlkem_tls_common) cloned the same way. Targets
#       that do not link OpenSSL (mlkem_kernel) are shared.
#   mlkem_peer_prefix(<release> <out>)
#       <out>: the prefix of the cached peer <release> ("3.6"), from the
#       cache variable MLKEM_OPENSSL<tag>_PREFIX when set, else from
#       `scripts/openssl-peer.sh <release> --print-prefix` (which honours
#       the environment's MLKEM_OPENSSL<tag>_PREFIX and never builds); empty
#       when there is no valid peer. Asked again at every configure, so a
#       peer built after the first configure is found.
#   mlkem_peer_missing_test(<name> <tag> <prefix> LABELS ...)
#       a test that prints why it cannot run and exits 77 (a visible skip,
#       which scripts/test.sh counts as a failure).
#
# Included from test/provider and test/tls; the clones are made in the
# directory that registers the tests.
include_guard(GLOBAL)

function(mlkem_openssl_peer tag prefix)
  set(MLKEM_PEER${tag}_FOUND FALSE PARENT_SCOPE)
  if(TARGET mlkem_peer${tag}_crypto)
    set(MLKEM_PEER${tag}_FOUND TRUE PARENT_SCOPE)
    return()
  endif()
  if(NOT prefix OR NOT EXISTS "${prefix}/include/openssl/opensslv.h")
    return()
  endif()
  # The peers are built for the host: a cross build (aarch64-qemu) cannot
  # link its programs against them (that preset excludes label openssl40).
  if(CMAKE_CROSSCOMPILING)
    return()
  endif()
  # The soname (libcrypto.so.4) is what the programs record; the unversioned
  # link names are what the peer's install provides for linking.
  foreach(lib crypto ssl)
    if(NOT EXISTS "${prefix}/lib/lib${lib}.so")
      return()
    endif()
  endforeach()
  foreach(lib crypto ssl)
    add_library(mlkem_peer${tag}_${lib} SHARED IMPORTED GLOBAL)
    set_target_properties(mlkem_peer${tag}_${lib} PROPERTIES
      IMPORTED_LOCATION "${prefix}/lib/lib${lib}.so"
      INTERFACE_INCLUDE_DIRECTORIES "${prefix}/include")
  endforeach()
  set_target_properties(mlkem_peer${tag}_ssl PROPERTIES
    INTERFACE_LINK_LIBRARIES mlkem_peer${tag}_crypto)
  set(MLKEM_PEER${tag}_FOUND TRUE PARENT_SCOPE)
endfunction()

# True (in <out>) if target <t> links OpenSSL directly or through a target
# of ours.
function(_mlkem_peer_needs out t)
  set(${out} FALSE PARENT_SCOPE)
  get_target_property(libs ${t} LINK_LIBRARIES)
  if(NOT libs)
    return()
  endif()
  foreach(l IN LISTS libs)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
    if(l MATCHES "^OpenSSL::")
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
    if(TARGET ${l})
      get_target_property(imp ${l} IMPORTED)
      if(NOT imp)
        _mlkem_peer_needs(sub ${l})
        if(sub)
          set(${out} TRUE PARENT_SCOPE)
          return()
        endif()
      endif()
    endif()
  endforeach()
endfunction()

# The link item <item> as the <tag> clone links it (cloning as needed).
function(_mlkem_peer_map out item tag)
  set(inner "${item}")
  set(wrap FALSE)
  if(item MATCHES "^\\$<LINK_ONLY:(.*)>$")
    set(inner "${CMAKE_MATCH_1}")
    set(wrap TRUE)
  endif()
  if(inner STREQUAL "OpenSSL::Crypto")
    set(inner mlkem_peer${tag}_crypto)
  elseif(inner STREQUAL "OpenSSL::SSL")
    set(inner mlkem_peer${tag}_ssl)
  elseif(TARGET ${inner})
    get_target_property(imp ${inner} IMPORTED)
    if(NOT imp)
      _mlkem_peer_needs(needs ${inner})
      if(needs)
        mlkem_peer_clone(${inner} ${tag})
        set(inner ${inner}_${tag})
      endif()
    endif()
  endif()
  if(wrap)
    set(inner "$<LINK_ONLY:${inner}>")
  endif()
  set(${out} "${inner}" PARENT_SCOPE)
endfunction()

function(mlkem_peer_clone target tag)
  set(new ${target}_${tag})
  if(TARGET ${new})
    return()
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(srcs ${target} SOURCES)
  get_target_property(sdir ${target} SOURCE_DIR)
  set(abs "")
  foreach(s IN LISTS srcs)
    if(s MATCHES "^\\$<")
      list(APPEND abs "${s}")
    elseif(IS_ABSOLUTE "${s}")
      list(APPEND abs "${s}")
    else()
      list(APPEND abs "${sdir}/${s}")
    endif()
  endforeach()
  if(type STREQUAL "EXECUTABLE")
    add_executable(${new} ${abs})
  elseif(type STREQUAL "STATIC_LIBRARY")
    add_library(${new} STATIC ${abs})
  else()
    message(FATAL_ERROR "mlkem_peer_clone: ${target} is a ${type}")
  endif()
  foreach(prop COMPILE_DEFINITIONS COMPILE_OPTIONS INCLUDE_DIRECTORIES
               INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS)
    get_target_property(v ${target} ${prop})
    if(v)
      set_property(TARGET ${new} PROPERTY ${prop} "${v}")
    endif()
  endforeach()
  foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(libs ${target} ${prop})
    set(mapped "")
    if(libs)
      foreach(l IN LISTS libs)
        _mlkem_peer_map(m "${l}" ${tag})
        list(APPEND mapped "${m}")
      endforeach()
    endif()
    set_property(TARGET ${new} PROPERTY ${prop} "${mapped}")
  endforeach()
  get_target_property(deps ${target} MANUALLY_ADDED_DEPENDENCIES)
  if(deps)
    add_dependencies(${new} ${deps})
  endif()
endfunction()

function(mlkem_peer_prefix release out)
  string(REPLACE "." "" tag "${release}")
  set(MLKEM_OPENSSL${tag}_PREFIX "" CACHE PATH
      "OpenSSL ${release} peer prefix (empty: scripts/openssl-peer.sh ${release} --print-prefix)")
  if(MLKEM_OPENSSL${tag}_PREFIX)
    set(${out} "${MLKEM_OPENSSL${tag}_PREFIX}" PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/openssl-peer.sh ${release} --print-prefix
                  OUTPUT_VARIABLE _p RESULT_VARIABLE _rc ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0)
    set(${out} "${_p}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(mlkem_peer_missing_test name tag prefix)
  cmake_parse_arguments(T "" "" "LABELS" ${ARGN})
  string(REGEX REPLACE "^([0-9])([0-9]+)$" "\\1.\\2" release "${tag}")
  mlkem_add_test(${name}
    COMMAND sh -c "echo \"SKIP: OpenSSL ${release} peer not found at '$1' when CMake ran (build it with scripts/openssl-peer.sh ${release}, export MLKEM_OPENSSL${tag}_PREFIX, configure again)\" && exit 77"
            sh "${prefix}"
    LABELS ${T_LABELS})
endfunction()
