# SPDX-License-Identifier: Apache-2.0
# cmake/Packaging.cmake: the documents the packages ship, and CPack's
# Debian (.deb) and RPM (.rpm) generators. Included last by the top-level
# CMakeLists.txt; the install rules of the module, the examples and the
# programs are in provider/ and tools/.
#
#   cmake --workflow --preset package       build/package/mlkem_<v>_<arch>.deb
#   cmake --workflow --preset package-rpm   build/package-rpm/mlkem-<v>-1.<arch>.rpm
#
# Both presets build without the tests and benchmarks (MLKEM_BUILD_TESTS,
# MLKEM_BUILD_BENCH OFF), so they need only the build dependencies
# (scripts/deps.sh --build). The RPM preset installs the module into RHEL 9 /
# Fedora's /usr/lib64/ossl-modules (MLKEM_MODULESDIR).
#
# Reproducible (test/ops/test_reproducible.sh): the compiler writes no build
# path (cmake/Reproducible.cmake), the files are stripped
# (CPACK_STRIP_FILES), the changelog is compressed without a time stamp
# (gzip -n), and cpack takes every time stamp in the archives from
# SOURCE_DATE_EPOCH: the one in cpack's environment, else the time of the
# source tree's last commit (git), set by the project configuration file
# below when cpack starts.
include_guard(GLOBAL)
include(GNUInstallDirs)

# ---- Documents --------------------------------------------------------------
# Everything README.md links to, at the same relative paths, so that its
# links (and theirs) work in /usr/share/doc/mlkem. LICENSE is the text the
# copyright file points to (Debian's copyright file holds the same licence).
set(MLKEM_DOCS
  docs/aarch64.md docs/design.md docs/openssl-versions.md docs/packaging.md
  docs/performance.md docs/proofs.md
  docs/performance.svg docs/testing.md docs/tls.md docs/usage.md)
install(FILES ${MLKEM_DOCS} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs"
        COMPONENT runtime)
# The man pages' sources, which README.md and docs/usage.md link to (the
# pages themselves, gzipped, are in the man directory: tools/).
install(FILES docs/man/mlkem.7 docs/man/mlkem-check.1 docs/man/mlkem-speed.1
              docs/man/mlkem-pkeyutl.1
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs/man" COMPONENT runtime)
install(FILES SECURITY.md LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}"
        COMPONENT runtime)
install(FILES test/vectors/data/README.md
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/test/vectors/data" COMPONENT runtime)

# Who the packages name as their maintainer (the Maintainer field, the
# changelogs). Whoever distributes the packages puts their own address here;
# the default's domain is the documentation one (RFC 2606).
set(MLKEM_PACKAGE_MAINTAINER "mlkem maintainers <mlkem@example.org>" CACHE STRING
    "Maintainer of the .deb and .rpm: Name <address>")

# The Debian changelog, compressed at maximum without name or time stamp
# (lintian; reproducible). The package's version is not Debian-revised
# (0.1.0, a native package), so its name is changelog.gz, not
# changelog.Debian.gz (lintian: wrong-name-for-changelog-of-native-package).
configure_file(packaging/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
configure_file(packaging/changelog.rpm.in ${CMAKE_BINARY_DIR}/packaging/changelog.rpm
               @ONLY)
find_program(MLKEM_GZIP gzip)
if(MLKEM_GZIP)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    COMMAND ${MLKEM_GZIP} -9nc ${CMAKE_BINARY_DIR}/packaging/changelog
            > ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog
    COMMENT "Compressing the Debian changelog" VERBATIM)
  add_custom_target(mlkem_changelog ALL
                    DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz
          DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
else()
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog DESTINATION "${CMAKE_INSTALL_DOCDIR}"
          COMPONENT runtime)
endif()

# ---- CPack: common ----------------------------------------------------------
# `cpack` stages `cmake --install` with DESTDIR and prefix /usr, so a
# package holds exactly the installed paths: the module in the modules
# directory provider/CMakeLists.txt chose (by default Debian's multiarch
# one; /usr/lib64/ossl-modules with the package-rpm preset), mlkem-check
# and mlkem-speed in /usr/bin, and in /usr/share/doc/mlkem/ the examples,
# README.md, the documents above, the changelog and the copyright file.
# Nothing under /etc: no configuration is active until the administrator
# adds it (README, "Enable it").
set(CPACK_PACKAGE_NAME "mlkem")
set(CPACK_PACKAGE_VENDOR "mlkem")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "ML-KEM (FIPS 203) provider for OpenSSL 3: KEM, keys, TLS hybrids")
set(CPACK_PACKAGE_CONTACT "${MLKEM_PACKAGE_MAINTAINER}")
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX "/usr")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_GENERATOR "DEB")
set(CPACK_STRIP_FILES ON)
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(_mlkem_description
    "An OpenSSL 3.0+ provider module (mlkem.so) with ML-KEM-512/768/1024\nkey management, encapsulation, key files, and the TLS 1.3 hybrid groups,\nwith mlkem-check (the TLS group a server picks) and mlkem-speed\n(openssl speed for ML-KEM on any OpenSSL 3).\nExample configuration: /usr/share/doc/mlkem/mlkem.cnf.example; TLS\nrecipes: /usr/share/doc/mlkem/examples/ (openssl-pq.cnf, nginx, apache2,\nhaproxy, stunnel, curl).")

# SOURCE_DATE_EPOCH for cpack, read when cpack runs (a commit made after
# the configure counts).
find_package(Git QUIET)
set(MLKEM_GIT "${GIT_EXECUTABLE}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CPackProject.cmake.in
               ${CMAKE_BINARY_DIR}/CPackProject.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_BINARY_DIR}/CPackProject.cmake")

# ---- Debian -------------------------------------------------------------------
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libssl3 (>= 3.0.0) | libssl3t64")
# Extended description (CPack puts the summary above as the synopsis line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${_mlkem_description}")
# prerm: on removal, warn when an OpenSSL configuration still loads the
# module (packaging/prerm; docs/tls.md, "Uninstalling").
configure_file(${CMAKE_SOURCE_DIR}/packaging/prerm
               ${CMAKE_BINARY_DIR}/packaging/deb/prerm COPYONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
               GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CMAKE_BINARY_DIR}/packaging/deb/prerm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# ---- RPM (RHEL 9, Fedora) -------------------------------------------------------
# The package-rpm preset gives MLKEM_MODULESDIR relative (lib64/ossl-modules,
# under the prefix /usr): CPack's RPM generator marks every file installed
# to an absolute destination %config, which a module is not.
# rpmbuild's dependency generator reads the ELF files: the package requires
# libcrypto.so.3()(64bit) and libcrypto.so.3(OPENSSL_3.0.0)(64bit) (RHEL's
# openssl-libs), libssl.so.3 and the glibc symbol versions used.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_LICENSE "Apache-2.0")
set(CPACK_RPM_PACKAGE_GROUP "System Environment/Libraries")
set(CPACK_RPM_PACKAGE_URL "")
set(CPACK_RPM_PACKAGE_DESCRIPTION "${_mlkem_description}")
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_PACKAGE_AUTOPROV OFF)
# Directories other packages own (openssl-libs owns ossl-modules).
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/lib64/ossl-modules /usr/lib/ossl-modules /usr/share/doc
    /usr/share/man /usr/share/man/man1 /usr/share/man/man7)
set(CPACK_RPM_CHANGELOG_FILE "${CMAKE_BINARY_DIR}/packaging/changelog.rpm")
set(CPACK_RPM_PRE_UNINSTALL_SCRIPT_FILE "${CMAKE_SOURCE_DIR}/packaging/prerm")
# No -debuginfo package: the files are stripped, as in the .deb.
set(CPACK_RPM_DEBUGINFO_PACKAGE OFF)
# The Packager tag (rpmlint); no host name of the build machine in the
# package; build time and file times from SOURCE_DATE_EPOCH, as in the .deb.
set(CPACK_RPM_SPEC_MORE_DEFINE
    "%define packager ${MLKEM_PACKAGE_MAINTAINER}\n%define _buildhost build\n%define use_source_date_epoch_as_buildtime 1\n%define clamp_mtime_to_source_date_epoch 1\n%define __os_install_post %{nil}\n%define _build_id_links none")

include(CPack)
