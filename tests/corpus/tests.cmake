# Corpus tests: byte-exact round trip, canonical printer, and ptxas proof.
find_program(PTXAS ptxas HINTS /usr/local/cuda/bin)
find_package(Python3 COMPONENTS Interpreter REQUIRED)

# name, directory: the pass line must count every .ptx file found now, so a
# file that silently disappears from the run fails the test.
function(ptx_corpus_tests name dir)
  file(GLOB_RECURSE files ${dir}/*.ptx)
  list(LENGTH files n)
  add_test(NAME roundtrip_${name}
    COMMAND pyptx-roundtrip --canonical --jobs 2 ${dir})
  set_tests_properties(roundtrip_${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "(^|\n)${n} passed, 0 failed\n")
  add_test(NAME ptxas_canonical_${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/corpus/ptxas_check.py
      --roundtrip $<TARGET_FILE:pyptx-roundtrip> --cubin-cmp $<TARGET_FILE:cubin_cmp>
      --ptxas ${PTXAS} --jobs 2 ${dir})
endfunction()

ptx_corpus_tests(shared ${PTX_SHARED_CORPUS})
ptx_corpus_tests(own ${CMAKE_SOURCE_DIR}/tests/corpus)

# Driver JIT of original, re-emitted and canonical text; needs a GPU, so it
# reports "skipped" (exit 77) where libcuda.so.1 or a device is missing.
# Compiler output only: the hand-written files are syntax tests, and one of
# them (hand/version_comment.ptx) is rejected by ptxas only because of a
# comment inside `.version`, which the canonical text drops.
add_test(NAME roundtrip_jit_gpu
  COMMAND pyptx-roundtrip --jit --canonical --jobs 2
    ${CMAKE_SOURCE_DIR}/tests/corpus/nvcc ${CMAKE_SOURCE_DIR}/tests/corpus/triton
    ${PTX_SHARED_CORPUS})
set_tests_properties(roundtrip_jit_gpu PROPERTIES SKIP_RETURN_CODE 77)
