# tests/faults: every allocation of every entry point made to fail in turn
# (sweep.c), on a sample of both corpora; only in a -DPTX_FAULTS=ON build,
# the sanitizer build of tools/run-tests.sh, which reports a crash or an
# undefined behaviour.  Not yet a leak: the sugar passes' and the nodebug
# filter's scratch buffers are not all freed when memory runs out in them
# (detect_leaks=0 below, until they are).
if(PTX_FAULTS)
  add_executable(fault_sweep ${CMAKE_CURRENT_LIST_DIR}/sweep.c)
  target_include_directories(fault_sweep PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(fault_sweep PRIVATE ptx)
  set(_c ${CMAKE_SOURCE_DIR}/tests/corpus)
  add_test(NAME faults_sweep
    COMMAND fault_sweep ${_c}/hand/nvcc_style.ptx ${_c}/hand/tcgen05.ptx
      ${_c}/hand/dwarf_sections.ptx ${_c}/hand/labels_guards.ptx
      ${_c}/hand/arrays_initializers.ptx ${_c}/nvcc/warp_mma_sm_80.ptx
      ${_c}/triton/softmax_sm_90.ptx ${PTX_SHARED_CORPUS}/pyptx/vector_add.ptx
      ${PTX_SHARED_CORPUS}/pyptx/tma_load_store.ptx)
  set_tests_properties(faults_sweep PROPERTIES
    PASS_REGULAR_EXPRESSION "[1-9][0-9]* failures injected, 0 wrong\n" TIMEOUT 1800
    ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
endif()
