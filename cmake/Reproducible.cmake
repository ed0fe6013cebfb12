# SPDX-License-Identifier: Apache-2.0
# cmake/Reproducible.cmake: no build path in what the compiler writes.
#
# OpenSSL's error lines name the source file as the compiler saw it
# (OPENSSL_FILE is __FILE__), and CMake passes absolute paths: without this
# an error printed "/home/me/src/mlkem/provider/kem.c:220", and two builds of
# one commit in two directories gave two different mlkem.so. With
# -ffile-prefix-map (__FILE__, debug info, coverage) the source tree reads
# as "" and the build tree as "" too: "provider/kem.c:220". The build tree
# is mapped last, so that it wins where it lies inside the source tree
# (build/default): GCC and clang use the last matching map.
#
# Included by the top-level CMakeLists.txt before any target; the packages
# add SOURCE_DATE_EPOCH (cmake/Packaging.cmake) and the test is
# test/ops/test_reproducible.sh.
include_guard(GLOBAL)
include(CheckCCompilerFlag)
check_c_compiler_flag("-ffile-prefix-map=${CMAKE_SOURCE_DIR}/="
                      MLKEM_HAVE_FILE_PREFIX_MAP)
if(MLKEM_HAVE_FILE_PREFIX_MAP)
  add_compile_options("-ffile-prefix-map=${CMAKE_SOURCE_DIR}/="
                      "-ffile-prefix-map=${CMAKE_BINARY_DIR}/=")
else()
  message(STATUS "The compiler has no -ffile-prefix-map: error lines and "
                 "binaries keep the build paths (builds are not reproducible "
                 "across directories)")
endif()
