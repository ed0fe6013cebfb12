# SPDX-License-Identifier: Apache-2.0
# uninstall.cmake: remove what `cmake --install` installed, as listed in its
# manifest. Run by the `uninstall` target:
#
#   cmake --build build/default --target uninstall          # as root if /usr
#   DESTDIR=/stage cmake --build build/default --target uninstall
#
# or directly: cmake -DMANIFEST=<build>/install_manifest.txt -P uninstall.cmake
#
# - Each listed file (under $DESTDIR when set) is removed; one already
#   absent is reported, not an error.
# - A file that a Debian package owns (dpkg -S; only checked without
#   DESTDIR) is left alone with a message: `dpkg -r mlkem` removes those.
# - Directories that held only our files (named mlkem or below one) are
#   removed once empty; shared directories (bin, ossl-modules) never are.
# The manifest is rewritten by every install from this build tree, including
# the staging install `cpack` does; run this after the install you mean to
# undo. Without the build tree: `xargs rm -v < install_manifest.txt`.
cmake_minimum_required(VERSION 3.20)
if(NOT MANIFEST OR NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "uninstall: no install manifest (${MANIFEST}): nothing "
                      "was installed from this build tree (`cmake --install` "
                      "writes it)")
endif()

set(_destdir "$ENV{DESTDIR}")
find_program(_dpkg_query dpkg-query)
file(STRINGS "${MANIFEST}" _files)
set(_removed 0)
set(_kept 0)
set(_dirs "")
foreach(_f IN LISTS _files)
  if(_f STREQUAL "")
    continue()
  endif()
  set(_path "${_destdir}${_f}")
  if(NOT EXISTS "${_path}" AND NOT IS_SYMLINK "${_path}")
    message(STATUS "already absent: ${_path}")
    continue()
  endif()
  if(_dpkg_query AND _destdir STREQUAL "")
    execute_process(COMMAND ${_dpkg_query} -S "${_f}"
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _owner ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rc EQUAL 0)
      string(REGEX REPLACE ":.*" "" _owner "${_owner}")
      message(STATUS "kept (package ${_owner} owns it; dpkg -r ${_owner}): ${_path}")
      math(EXPR _kept "${_kept} + 1")
      continue()
    endif()
  endif()
  file(REMOVE "${_path}")
  if(EXISTS "${_path}")
    message(FATAL_ERROR "uninstall: cannot remove ${_path}")
  endif()
  message(STATUS "removed: ${_path}")
  math(EXPR _removed "${_removed} + 1")
  get_filename_component(_dir "${_path}" DIRECTORY)
  list(APPEND _dirs "${_dir}")
endforeach()

# Our own directories, deepest first (share/doc/mlkem/examples, then
# share/doc/mlkem), once empty.
list(REMOVE_DUPLICATES _dirs)
list(SORT _dirs ORDER DESCENDING)
foreach(_dir IN LISTS _dirs)
  while(_dir MATCHES "/mlkem(/|$)" AND IS_DIRECTORY "${_dir}")
    file(GLOB _left "${_dir}/*" "${_dir}/.*")
    if(_left)
      break()
    endif()
    file(REMOVE_RECURSE "${_dir}")
    message(STATUS "removed empty directory: ${_dir}")
    get_filename_component(_dir "${_dir}" DIRECTORY)
  endwhile()
endforeach()
message(STATUS "uninstall: ${_removed} file(s) removed, ${_kept} kept")
