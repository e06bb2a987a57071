# pyptx-codegen round-trip tests (see tests/pyptx/harness.py and
# src/codegen/DESIGN.md).  The harness needs a python with pyptx 0.1.1.
set(PYPTX_HARNESS ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/harness.py)

add_test(NAME pyptx_harness_selftest
  COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/selftest.py
          --python ${PTX_VENV_PYTHON})

if(TARGET pyptx-codegen)
  foreach(mode plain sugar)
    add_test(NAME pyptx_codegen_${mode}
      COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
              --mode ${mode} --jobs 2 -q
              $<TARGET_FILE:pyptx-codegen> ${PTX_SHARED_CORPUS}/pyptx)
    set_tests_properties(pyptx_codegen_${mode} PROPERTIES TIMEOUT 1800)
  endforeach()
endif()
