# SPDX-License-Identifier: Apache-2.0
# mlkem_kernel_objects(<name> <sources...>): an OBJECT library <name> and a
# twin <name>_testing built with MLKEM_TESTING (valgrind secret annotations,
# for tests only), both recorded in the global property MLKEM_KERNEL_PARTS
# so the top level can gather the whole kernel (keccak/, kem/, arch/ and
# each enabled arch/<isa>/) into mlkem_kernel and mlkem_kernel_testing.
function(mlkem_kernel_objects name)
  add_library(${name} OBJECT ${ARGN})
  add_library(${name}_testing OBJECT ${ARGN})
  target_compile_definitions(${name}_testing PRIVATE MLKEM_TESTING)
  set_property(GLOBAL APPEND PROPERTY MLKEM_KERNEL_PARTS ${name})
endfunction()
