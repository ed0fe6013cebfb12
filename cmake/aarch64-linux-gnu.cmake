# SPDX-License-Identifier: Apache-2.0
# aarch64-linux-gnu.cmake: cross build for 64-bit Arm Linux (little-endian)
# on a Debian x86-64 host, tests run under qemu-user.
#
# What it expects (scripts/deps.sh --aarch64 installs it):
#   gcc-aarch64-linux-gnu g++-aarch64-linux-gnu   the cross compilers, whose
#                         libc is the sysroot /usr/aarch64-linux-gnu
#   libssl-dev:arm64      OpenSSL 3 headers and libraries (and libc6:arm64)
#                         from Debian's
#                         multiarch (dpkg --add-architecture arm64): they land
#                         in /usr/include/aarch64-linux-gnu and
#                         /usr/lib/aarch64-linux-gnu, which Debian's cross
#                         compilers search by default
#   qemu-user             qemu-aarch64, the test emulator
#
# Compiler: gcc by default; -DMLKEM_AARCH64_COMPILER=clang builds with
# clang --target=aarch64-linux-gnu against the same sysroot (Debian's clang
# finds the cross gcc's headers and libraries and links with its
# aarch64-linux-gnu-ld).
#
# Tests: CMAKE_CROSSCOMPILING_EMULATOR runs every test program through
# qemu-aarch64. The programs run on Debian's multiarch arm64 C library and
# OpenSSL (libc6:arm64, which libssl3:arm64 pulls in, puts the dynamic
# loader at /lib/ld-linux-aarch64.so.1), not on the cross sysroot's libc
# (qemu -L /usr/aarch64-linux-gnu): with Debian 12's cross libc
# (2.36-8cross1) under qemu 7.2 the first pthread_create never returns,
# which hangs every threaded test. The CPU model comes from the
# environment variable QEMU_CPU (qemu's own), "max" when unset: it
# implements the SHA3 extension; e.g. QEMU_CPU=cortex-a72 does not.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(MLKEM_AARCH64_TRIPLE aarch64-linux-gnu)
set(MLKEM_AARCH64_SYSROOT /usr/${MLKEM_AARCH64_TRIPLE}
    CACHE PATH "The cross compilers' libc")
set(MLKEM_AARCH64_COMPILER gcc CACHE STRING "gcc or clang")
set_property(CACHE MLKEM_AARCH64_COMPILER PROPERTY STRINGS gcc clang)

if(MLKEM_AARCH64_COMPILER STREQUAL "clang")
  set(CMAKE_C_COMPILER clang)
  set(CMAKE_CXX_COMPILER clang++)
  set(CMAKE_C_COMPILER_TARGET ${MLKEM_AARCH64_TRIPLE})
  set(CMAKE_CXX_COMPILER_TARGET ${MLKEM_AARCH64_TRIPLE})
elseif(MLKEM_AARCH64_COMPILER STREQUAL "gcc")
  set(CMAKE_C_COMPILER ${MLKEM_AARCH64_TRIPLE}-gcc)
  set(CMAKE_CXX_COMPILER ${MLKEM_AARCH64_TRIPLE}-g++)
else()
  message(FATAL_ERROR "MLKEM_AARCH64_COMPILER must be gcc or clang, not "
          "'${MLKEM_AARCH64_COMPILER}'")
endif()
set(CMAKE_AR ${MLKEM_AARCH64_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${MLKEM_AARCH64_TRIPLE}-ranlib CACHE FILEPATH "")
set(CMAKE_NM ${MLKEM_AARCH64_TRIPLE}-nm CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${MLKEM_AARCH64_TRIPLE}-objdump CACHE FILEPATH "")
set(CMAKE_STRIP ${MLKEM_AARCH64_TRIPLE}-strip CACHE FILEPATH "")

# Libraries and headers: Debian multiarch (lib/aarch64-linux-gnu under /usr)
# and the cross libc; host programs (qemu, bash, dpkg-deb) from the host.
set(CMAKE_LIBRARY_ARCHITECTURE ${MLKEM_AARCH64_TRIPLE})
set(CMAKE_FIND_ROOT_PATH ${MLKEM_AARCH64_SYSROOT} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (FindOpenSSL asks it first) must read the arm64 .pc files,
# not the host's.
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/${MLKEM_AARCH64_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

find_program(MLKEM_QEMU_AARCH64 qemu-aarch64)
if(MLKEM_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MLKEM_QEMU_AARCH64})
endif()
