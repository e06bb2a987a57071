# The Python package pyptx-c (cmake/python.cmake, src/python/,
# python/pyptx_c/): pytest under the venv of tools/setup.sh (pyptx 0.1.1,
# pytest, scikit-build-core), against the package built in BUILD/python.
#   python_api      every corpus file printed back, read access, diff,
#                   errors and their locations, four threads, 10,000 cycles
#   python_dropin   ptx_to_python against pyptx.codegen's, traced by pyptx
#   python_verify   ptx_to_python(verify=True), with a pass unfaithful on
#                   purpose (tests/pyptx/verify/fault.py)
#   python_package  wheel and sdist into fresh venvs (label "package")
#   python_valgrind the extension's calls under valgrind (label "valgrind")
if(NOT TARGET _core)
  return()
endif()
set(PTX_PY_ENV
  PYPTX_C_PATH=${CMAKE_BINARY_DIR}/python PTX_BIN=${CMAKE_BINARY_DIR}
  PTX_SOURCE=${CMAKE_SOURCE_DIR} PTX_SHARED_CORPUS=${PTX_SHARED_CORPUS})
foreach(t api dropin verify package)
  add_test(NAME python_${t}
    COMMAND ${PTX_VENV_PYTHON} -m pytest -q -p no:cacheprovider -W ignore::Warning
            ${CMAKE_CURRENT_SOURCE_DIR}/python/test_${t}.py)
  set_tests_properties(python_${t} PROPERTIES ENVIRONMENT "${PTX_PY_ENV}" TIMEOUT 1800)
endforeach()
set_tests_properties(python_package PROPERTIES LABELS package)
add_test(NAME python_valgrind
  COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/python/leakcheck.py --valgrind 100)
set_tests_properties(python_valgrind PROPERTIES ENVIRONMENT "${PTX_PY_ENV}"
  LABELS valgrind TIMEOUT 900)
