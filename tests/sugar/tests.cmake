# Golden tests of the sugar passes (tests/sugar/run.py): each PTX file,
# traced by pyptx from the DSL source beside it, decompiles with --sugar
# to the Python in its .expect file and traces back to itself byte for byte.
if(TARGET pyptx-codegen)
  add_test(NAME sugar_golden
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sugar/run.py
            --python ${PTX_VENV_PYTHON} $<TARGET_FILE:pyptx-codegen>)
endif()
