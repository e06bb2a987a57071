# tests/diff: pyptx-diff.  run_tests.py makes every pair at test time (nvcc
# over kernels.cu, renumber.py over shared corpus files) and runs one case
# per test; test_diff.c checks the alignment core and the library API.
find_program(NVCC nvcc HINTS /usr/local/cuda/bin)
find_package(Python3 COMPONENTS Interpreter REQUIRED)
find_library(CMOCKA_LIB cmocka REQUIRED)

# Without nvcc the nvcc cases must fail, not pass: run_tests.py reports
# "nvcc not found" for an empty --nvcc.
set(DIFF_NVCC "${NVCC}")
if(NOT NVCC)
  set(DIFF_NVCC "")
endif()

set(DIFF_CASES lineinfo source_change functions canonical labels regs names
    modifier stat json errors large)
foreach(case ${DIFF_CASES})
  add_test(NAME diff_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/run_tests.py
      --diff $<TARGET_FILE:pyptx-diff>
      --roundtrip $<TARGET_FILE:pyptx-roundtrip>
      --nvcc "${DIFF_NVCC}"
      --corpus ${PTX_SHARED_CORPUS}/pyptx
      --bench ${CMAKE_SOURCE_DIR}/tools/diff_bench.py
      --work ${CMAKE_CURRENT_BINARY_DIR}/diff_work
      ${case})
endforeach()
set_tests_properties(diff_large PROPERTIES TIMEOUT 900)

add_executable(diff_unit ${CMAKE_CURRENT_LIST_DIR}/test_diff.c)
target_include_directories(diff_unit PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(diff_unit PRIVATE ptx ${CMOCKA_LIB})
add_test(NAME diff_unit COMMAND diff_unit)

# Tree mode on real trees (trees/run.py): the project's Triton kernels
# under two policies (trees/triton.tar.xz) and the nvcc corpus at -O3 and
# -G.  The resource figures are checked against NVIDIA's cuobjdump (and
# its nvdisasm), which tools/setup.sh installs into the venv from PyPI: the
# toolkit here has ptxas but no cuobjdump.
execute_process(COMMAND ${PTX_VENV_PYTHON} -c
  "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'cu13', 'bin', 'cuobjdump'))"
  OUTPUT_VARIABLE DIFF_CUOBJDUMP OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(TREE_CASES rename handmade configs resources markdown badinput jit)
foreach(case ${TREE_CASES})
  add_test(NAME diff_tree_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/trees/run.py
      --diff $<TARGET_FILE:pyptx-diff> --work ${CMAKE_CURRENT_BINARY_DIR}/tree_work
      --cuobjdump "${DIFF_CUOBJDUMP}" ${case})
endforeach()
set_tests_properties(diff_tree_resources PROPERTIES TIMEOUT 2400)   # ptxas on 2 x 2 trees; ASan
set_tests_properties(diff_tree_jit PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
