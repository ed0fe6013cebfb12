# SPDX-License-Identifier: Apache-2.0
# unpack.cmake: unpack the repository's test vectors into the build tree and
# check every file against SHA256SUMS (the upstream files' SHA-256).
#
#   cmake -DDATA=<test/vectors/data> -DOUT=<build>/vectors -P unpack.cmake
#
# The result is the default MLKEM_VECTORS_DIR: OUT/acvp/<folder>/
# internalProjection.json and OUT/cctv/<set>/ML-KEM-*.txt[.gz]. CMake's own archive support reads .tar.xz,
# so no xz program is needed. Any missing or altered file fails the build.
cmake_minimum_required(VERSION 3.20)
if(NOT DATA OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DDATA=<dir> -DOUT=<dir> -P unpack.cmake")
endif()

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
foreach(archive acvp.tar.xz cctv.tar.xz)
  file(ARCHIVE_EXTRACT INPUT "${DATA}/${archive}" DESTINATION "${OUT}")
endforeach()

file(STRINGS "${DATA}/SHA256SUMS" _lines)
set(_n 0)
foreach(_line IN LISTS _lines)
  if(NOT _line MATCHES "^([0-9a-f]+)  (.+)$")
    message(FATAL_ERROR "${DATA}/SHA256SUMS: malformed line: ${_line}")
  endif()
  set(_want "${CMAKE_MATCH_1}")
  set(_file "${CMAKE_MATCH_2}")
  if(NOT EXISTS "${OUT}/${_file}")
    message(FATAL_ERROR "test vectors: ${_file} is missing from the archives")
  endif()
  file(SHA256 "${OUT}/${_file}" _got)
  if(NOT _got STREQUAL _want)
    message(FATAL_ERROR "test vectors: ${_file}: SHA-256 ${_got}, SHA256SUMS says ${_want}")
  endif()
  math(EXPR _n "${_n} + 1")
endforeach()
if(_n EQUAL 0)
  message(FATAL_ERROR "${DATA}/SHA256SUMS lists no file")
endif()
file(WRITE "${OUT}/.unpacked" "${_n} files checked against SHA256SUMS\n")
