# tests/faults: out of memory at every allocation (util/alloc.h), only in a
# -DPTX_FAULTS=ON build, whose ptx_fault_after makes a chosen allocation
# fail.  tools/run-tests.sh turns it on in two builds:
#   faults_sweep   (build-asan) sweep.c through the C API, on the project's
#                  own corpus, tests/sugar's golden inputs and a sample of
#                  the shared one: AddressSanitizer
#                  and UBSan report a crash, an undefined behaviour or a leak
#                  of what unwinding left behind; faults_measure, the same
#                  for ptx_tree_measure (which runs ptxas);
#   faults_python  (build-faults, the one with the extension) python_sweep.py
#                  through the Python API: MemoryError or the right result.
if(PTX_FAULTS)
  set(_c ${CMAKE_SOURCE_DIR}/tests/corpus)
  # tests/sugar's kernels are traced from pyptx: they reach the passes that
  # take only code written in pyptx (outline, kloop, group, ...)
  file(GLOB PTX_FAULT_FILES ${_c}/hand/*.ptx ${_c}/triton/*.ptx
    ${CMAKE_SOURCE_DIR}/tests/sugar/*.ptx)
  list(APPEND PTX_FAULT_FILES ${_c}/nvcc/warp_mma_sm_80.ptx
    ${_c}/nvcc/warp_mma_sm_90a_lineinfo.ptx ${PTX_SHARED_CORPUS}/pyptx/vector_add.ptx
    ${PTX_SHARED_CORPUS}/pyptx/tma_load_store.ptx ${PTX_SHARED_CORPUS}/pyptx/hopper_misc.ptx)
  add_executable(fault_sweep ${CMAKE_CURRENT_LIST_DIR}/sweep.c)
  target_include_directories(fault_sweep PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(fault_sweep PRIVATE ptx)
  add_test(NAME faults_sweep COMMAND fault_sweep ${PTX_FAULT_FILES})
  set_tests_properties(faults_sweep PROPERTIES
    PASS_REGULAR_EXPRESSION "[1-9][0-9]* failures injected, 0 wrong\n" TIMEOUT 1800)
  # ptx_tree_measure runs ptxas on both files at every failure: two small
  # files, each measured against the other (ptxas from PATH or the CUDA
  # toolkit; where there is none, every call fails alike and nothing is swept)
  add_test(NAME faults_measure COMMAND fault_sweep --only measure
    ${PTX_SHARED_CORPUS}/pyptx/vector_add.ptx ${_c}/hand/nvcc_style.ptx)
  set_tests_properties(faults_measure PROPERTIES
    PASS_REGULAR_EXPRESSION "[1-9][0-9]* failures injected, 0 wrong\n" TIMEOUT 600)
  if(TARGET _core)
    add_test(NAME faults_python
      COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/python_sweep.py
        ${CMAKE_BINARY_DIR}/python ${_c}/hand/nvcc_style.ptx ${_c}/hand/dwarf_sections.ptx
        ${_c}/nvcc/warp_mma_sm_80.ptx ${_c}/triton/softmax_sm_90.ptx
        ${PTX_SHARED_CORPUS}/pyptx/vector_add.ptx)
    set_tests_properties(faults_python PROPERTIES
      PASS_REGULAR_EXPRESSION "[1-9][0-9]* failures injected, 0 wrong\n" TIMEOUT 600)
  endif()
endif()
