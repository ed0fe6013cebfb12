# mlkem_kernel_objects(<name> <sources...>): an OBJECT library <name> and a
# twin <name>_testing built with MLKEM_TESTING (hooks for tests only).
function(mlkem_kernel_objects name)
  add_library(${name} OBJECT ${ARGN})
  add_library(${name}_testing OBJECT ${ARGN})
  target_compile_definitions(${name}_testing PRIVATE MLKEM_TESTING)
endfunction()
