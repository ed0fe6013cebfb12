# SPDX-License-Identifier: Apache-2.0
# inline_hashes.cmake: the published hashes the vector tests carry inline
# (test/vectors/kat_native.c, test/vectors/cctv_accumulated.c) are the ones
# shipped in this folder (mlkem-native/kat-sha256.txt, cctv-accumulated.txt),
# all of them.
#
#   cmake -DDATA=<test/vectors/data> -DSRC=<test/vectors> -P inline_hashes.cmake
cmake_minimum_required(VERSION 3.20)
set(_fail 0)
foreach(pair "mlkem-native/kat-sha256.txt;kat_native.c;3"
             "cctv-accumulated.txt;cctv_accumulated.c;6")
  list(GET pair 0 _list)
  list(GET pair 1 _c)
  list(GET pair 2 _want)
  file(STRINGS "${DATA}/${_list}" _lines REGEX "^[^#]")
  file(READ "${SRC}/${_c}" _code)
  set(_n 0)
  foreach(_line IN LISTS _lines)
    if(NOT _line MATCHES "([0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+)$")
      message(SEND_ERROR "${_list}: no hash in: ${_line}")
      set(_fail 1)
      continue()
    endif()
    set(_h "${CMAKE_MATCH_1}")
    string(LENGTH "${_h}" _len)
    string(FIND "${_code}" "\"${_h}\"" _at)
    if(NOT _len EQUAL 64 OR _at EQUAL -1)
      message(SEND_ERROR "${_c} does not carry ${_list}'s hash ${_h}")
      set(_fail 1)
    endif()
    math(EXPR _n "${_n} + 1")
  endforeach()
  if(NOT _n EQUAL _want)
    message(SEND_ERROR "${_list}: ${_n} hashes, expected ${_want}")
    set(_fail 1)
  endif()
  message(STATUS "${_c}: the ${_n} hashes of ${_list}")
endforeach()
if(_fail)
  message(FATAL_ERROR "inline hashes differ from the published ones")
endif()
