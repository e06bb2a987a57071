# tests/fuzz: libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined).
#
# fuzz_front: tests/fuzz/run.sh builds the harness with clang (build.sh; it
# FAILS when clang is missing), runs the regression inputs through it and
# fuzzes for 30 s from a seed corpus made at test time (seed.sh: tests/corpus,
# the shared corpus, tests/bad).  Each fuzzer builds in its own directory
# (build/fuzz/<name>), so the tests may run in parallel.  Label "fuzz": the
# sanitizer build of tools/run-tests.sh skips these, the harnesses being
# sanitized already.
set(PTX_FUZZ_SECONDS 30 CACHE STRING "seconds each fuzz_* test fuzzes")
set(FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME fuzz_front
  COMMAND ${FUZZ_DIR}/run.sh ${CMAKE_BINARY_DIR}/fuzz/front ${PTX_FUZZ_SECONDS} fuzz_front)
set_tests_properties(fuzz_front PROPERTIES LABELS fuzz TIMEOUT 900
  ENVIRONMENT "PTX_SHARED_CORPUS=${PTX_SHARED_CORPUS}")

# The code generator's harness, once include/ptx/codegen.h exists.
if(EXISTS ${CMAKE_SOURCE_DIR}/include/ptx/codegen.h AND EXISTS ${FUZZ_DIR}/fuzz_codegen.c)
  add_test(NAME fuzz_codegen
    COMMAND ${FUZZ_DIR}/run.sh ${CMAKE_BINARY_DIR}/fuzz/codegen ${PTX_FUZZ_SECONDS} fuzz_codegen)
  set_tests_properties(fuzz_codegen PROPERTIES LABELS fuzz TIMEOUT 900
    ENVIRONMENT "PTX_SHARED_CORPUS=${PTX_SHARED_CORPUS}")
endif()

# With -DPTX_FUZZ=ON (clang), the harnesses are CMake targets too, for
# fuzzing by hand: build/tests/fuzz_front -dict=tests/fuzz/ptx.dict CORPUS_DIR
if(PTX_FUZZ)
  foreach(fz front codegen)
    if(fz STREQUAL "codegen" AND NOT EXISTS ${CMAKE_SOURCE_DIR}/include/ptx/codegen.h)
      continue()
    endif()
    add_executable(fuzz_${fz}_cm ${FUZZ_DIR}/fuzz_${fz}.c)
    set_target_properties(fuzz_${fz}_cm PROPERTIES OUTPUT_NAME fuzz_${fz})
    target_link_libraries(fuzz_${fz}_cm PRIVATE ptx)
    target_link_options(fuzz_${fz}_cm PRIVATE -fsanitize=fuzzer)
  endforeach()
endif()

# Every input that ever crashed the fuzzer, through the real program (so the
# sanitizer build checks them too): parses and round-trips, or fails with a
# diagnostic and exit status 1.  See tests/bad/run.py.
add_test(NAME fuzz_regressions
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/bad/run.py
    --roundtrip $<TARGET_FILE:pyptx-roundtrip> --regressions ${FUZZ_DIR}/regressions)

# The whole pipeline, PTX -> Python -> pyptx -> PTX (tools/fuzz_pipeline.py):
# every failure it ever saved (tests/fuzz/pipeline) replayed through every
# oracle, in both builds; then PTX_PIPELINE_FUZZ_SECONDS of new mutants
# (label fuzz: the first build only), whose failures land in the build tree.
set(PTX_PIPELINE_FUZZ_SECONDS 60 CACHE STRING "seconds fuzz_pipeline fuzzes")
if(TARGET pyptx-codegen AND TARGET pyptx-diff AND TARGET pyptx-roundtrip)
  add_test(NAME fuzz_pipeline_replay
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_SOURCE_DIR}/tools/fuzz_pipeline.py
            --bin $<TARGET_FILE_DIR:pyptx-codegen> --replay ${FUZZ_DIR}/pipeline)
  add_test(NAME fuzz_pipeline
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_SOURCE_DIR}/tools/fuzz_pipeline.py
            --bin $<TARGET_FILE_DIR:pyptx-codegen> --jobs 3
            --save ${CMAKE_BINARY_DIR}/fuzz/pipeline-found ${PTX_PIPELINE_FUZZ_SECONDS})
  set_tests_properties(fuzz_pipeline PROPERTIES LABELS fuzz TIMEOUT 900)
  set_tests_properties(fuzz_pipeline_replay PROPERTIES TIMEOUT 900)
endif()
