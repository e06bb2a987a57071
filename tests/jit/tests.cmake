# tests/jit: the cubin comparer (src/cubin, tools/cubin_cmp) and the driver
# JIT (src/jit, tools/jit_check).
#
# Exit-status conventions (include/ptx/jit.h): 0 pass/same, 1 fail/different,
# 2 trouble, 77 skip.  Tests that need something this machine may lack (ptxas,
# a CUDA driver and GPU) exit 77 and carry SKIP_RETURN_CODE 77, so CTest
# reports them as skipped rather than passed.
set(JIT_DIR ${CMAKE_CURRENT_LIST_DIR})
set(JIT_DATA ${JIT_DIR}/data)
set(JIT_WORK ${CMAKE_CURRENT_BINARY_DIR}/jit_work)
file(MAKE_DIRECTORY ${JIT_WORK})
find_program(PTXAS ptxas HINTS /usr/local/cuda/bin)
find_library(CMOCKA_LIB cmocka)
set(JIT_PTXAS "${PTXAS}")
if(NOT PTXAS)
  set(JIT_PTXAS "")
endif()
# A test that requires an exact exit status of its command (and, unless
# `match` is "", that its output matches the regex `match`).
function(jit_expect_test name expect match)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DEXPECT=${expect} "-DMATCH=${match}"
            -P ${JIT_DIR}/expect.cmake -- ${ARGN})
endfunction()

if(CMOCKA_LIB)
  add_executable(test_jit_cubin ${JIT_DIR}/test_cubin.c)
  target_link_libraries(test_jit_cubin PRIVATE ptx_cli ptx ${CMOCKA_LIB})
  add_test(NAME jit_cubin_synthetic COMMAND test_jit_cubin --synthetic)
  add_test(NAME jit_cubin_ptxas
    COMMAND test_jit_cubin --ptxas "${JIT_PTXAS}" ${JIT_DATA} ${JIT_WORK}/unit)
  set_tests_properties(jit_cubin_ptxas PROPERTIES SKIP_RETURN_CODE 77)

  add_executable(test_jit_driver ${JIT_DIR}/test_jit.c)
  target_link_libraries(test_jit_driver PRIVATE ptx_cli ptx ${CMOCKA_LIB})
  target_include_directories(test_jit_driver PRIVATE ${CMAKE_SOURCE_DIR}/src)   # cli/exit.h
  add_test(NAME jit_no_driver COMMAND test_jit_driver --no-driver)
  # On a machine with a GPU this runs the real JIT; elsewhere it is skipped.
  add_test(NAME jit_gpu COMMAND test_jit_driver --gpu ${JIT_DATA})
  set_tests_properties(jit_gpu PROPERTIES SKIP_RETURN_CODE 77)
endif()

# A stand-in libcuda.so.1 (tests/jit/fake_cuda.c) to run the JIT plumbing
# without a GPU.  Needs cuda.h, like src/jit itself.
if(PTX_CUDA_INCLUDE_DIR)
  add_library(ptx_fake_cuda MODULE ${JIT_DIR}/fake_cuda.c)
  target_include_directories(ptx_fake_cuda SYSTEM PRIVATE ${PTX_CUDA_INCLUDE_DIR})
  if(CMOCKA_LIB)
    add_test(NAME jit_fake_driver
      COMMAND test_jit_driver --fake $<TARGET_FILE:ptx_fake_cuda>)
  endif()
endif()

# ---- tools/jit_check -------------------------------------------------------
jit_expect_test(jit_check_no_driver 77 "skipped: no CUDA driver: "
  $<TARGET_FILE:jit_check> ${JIT_DATA}/k.ptx ${JIT_DATA}/k_ws.ptx)
set_tests_properties(jit_check_no_driver PROPERTIES
  ENVIRONMENT "PTX_LIBCUDA=/nonexistent/libcuda.so.1")
jit_expect_test(jit_check_usage 2 "wants a target"
  $<TARGET_FILE:jit_check> --arch sm_9 a b)
# Real driver: whitespace/comment changes give identical cubins.
add_test(NAME jit_check_gpu_whitespace
  COMMAND jit_check ${JIT_DATA}/k.ptx ${JIT_DATA}/k_ws.ptx)
set_tests_properties(jit_check_gpu_whitespace PROPERTIES SKIP_RETURN_CODE 77)

# ---- tools/cubin_cmp on cubins ptxas makes now -------------------------------
if(PTXAS)
  set(JIT_CLI ${JIT_WORK}/cli)
  add_test(NAME jit_cubins_assemble
    COMMAND ${CMAKE_COMMAND} -DPTXAS=${PTXAS} -DSRC=${JIT_DATA} -DOUT=${JIT_CLI}
            -P ${JIT_DIR}/assemble.cmake)
  set_tests_properties(jit_cubins_assemble PROPERTIES FIXTURES_SETUP jit_cubins)

  # name, expected status, output regex ("" = any), cubin_cmp arguments...
  function(jit_cmp_test name expect match)
    jit_expect_test(jit_cubin_cmp_${name} ${expect} "${match}"
      $<TARGET_FILE:cubin_cmp> ${ARGN})
    set_tests_properties(jit_cubin_cmp_${name} PROPERTIES
      FIXTURES_REQUIRED jit_cubins)
  endfunction()
  jit_cmp_test(same 0 "^same" ${JIT_CLI}/k.cubin ${JIT_CLI}/k_again.cubin)
  jit_cmp_test(whitespace 0 "" ${JIT_CLI}/k.cubin ${JIT_CLI}/k_ws.cubin)
  jit_cmp_test(changed 1 "section \\.text\\.add_one differs at offset"
    ${JIT_CLI}/k.cubin ${JIT_CLI}/k_changed.cubin)
  jit_cmp_test(renamed_strict 1 "present in A only"
    ${JIT_CLI}/k.cubin ${JIT_CLI}/k_renamed.cubin)
  jit_cmp_test(renamed_names_may_differ 0 ""
    ${JIT_CLI}/k.cubin ${JIT_CLI}/k_renamed.cubin --names-may-differ)
  jit_cmp_test(renamed_map 0 "" ${JIT_CLI}/k.cubin ${JIT_CLI}/k_renamed.cubin
    --rename add_one=zz_inc --rename scale=aa_mul)
  jit_cmp_test(reordered_strict 1 "\\.nv\\.info differs"
    ${JIT_CLI}/k.cubin ${JIT_CLI}/k_reordered.cubin)
  jit_cmp_test(reordered_names_may_differ 0 ""
    ${JIT_CLI}/k.cubin ${JIT_CLI}/k_reordered.cubin --names-may-differ)
  jit_cmp_test(garbage 2 "malformed cubin"
    ${JIT_CLI}/k.cubin ${JIT_DATA}/k.ptx)
  jit_cmp_test(missing 2 "" ${JIT_CLI}/k.cubin ${JIT_CLI}/no-such.cubin)

  # jit_check against the stand-in driver, which "compiles" PTX that says
  # "// FAKE_CUBIN: path" to that cubin (assemble.cmake writes such files).
  if(TARGET ptx_fake_cuda)
    function(jit_fake_test name expect match)
      jit_expect_test(jit_check_fake_${name} ${expect} "${match}"
        $<TARGET_FILE:jit_check> ${ARGN})
      set_tests_properties(jit_check_fake_${name} PROPERTIES
        FIXTURES_REQUIRED jit_cubins
        ENVIRONMENT "PTX_LIBCUDA=$<TARGET_FILE:ptx_fake_cuda>")
    endfunction()
    jit_fake_test(same 0 "Fake GPU"
      ${JIT_CLI}/fake_k.ptx ${JIT_CLI}/fake_k_ws.ptx)
    jit_fake_test(changed 1 "different: section \\.text\\.add_one"
      --arch sm_90a ${JIT_CLI}/fake_k.ptx ${JIT_CLI}/fake_k_changed.ptx)
    jit_fake_test(one_rejected 1 "fake rejection.*only A was accepted"
      ${JIT_CLI}/fake_k.ptx ${JIT_CLI}/fake_reject.ptx)
    jit_fake_test(both_rejected 2 "both files were rejected"
      ${JIT_CLI}/fake_reject.ptx ${JIT_CLI}/fake_reject.ptx)
    jit_fake_test(renamed 0 "identical" --names-may-differ
      ${JIT_CLI}/fake_k.ptx ${JIT_CLI}/fake_k_renamed.ptx)
  endif()
endif()
