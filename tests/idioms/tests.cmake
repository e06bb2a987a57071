# Idioms of the sugar passes checked against pyptx 0.1.1 itself: the
# "calls" pass writes exactly the instructions pyptx's typed wrappers emit
# and accept (tests/idioms/wrappers.py).
if(TARGET pyptx-codegen)
  add_test(NAME sugar_wrappers_vs_pyptx
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/idioms/wrappers.py
            $<TARGET_FILE:pyptx-codegen>)
endif()
# ... and the "expr" pass writes a Reg operator (a + b, a += b) exactly
# where pyptx's operator emits that instruction (tests/idioms/operators.py).
if(TARGET pyptx-codegen)
  add_test(NAME sugar_operators_vs_pyptx
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/idioms/operators.py
            $<TARGET_FILE:pyptx-codegen>)
endif()

# ... and each construct with a fixed expansion (ptx.mbarrier.wait,
# smem.alloc, ptx.range_, ptx.kloop, the descriptor helpers, tcgen05, TMA)
# comes back as that construct: every instruction from the same pyptx
# function, the same text (tests/idioms/constructs.py).
if(TARGET pyptx-codegen)
  add_test(NAME sugar_constructs_vs_pyptx
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/idioms/constructs.py
            $<TARGET_FILE:pyptx-codegen>)
endif()

# The corpus of idiomatic pyptx (tests/idiomatic/): each kernel traced,
# assembled by ptxas, decompiled with --sugar and traced back to the same
# PTX, byte for byte; the line figures are printed.
find_program(PTX_IDIOMATIC_PTXAS ptxas HINTS /usr/local/cuda/bin)
if(TARGET pyptx-codegen)
  if(PTX_IDIOMATIC_PTXAS)
    set(idiomatic_ptxas --ptxas ${PTX_IDIOMATIC_PTXAS})
  endif()
  add_test(NAME idiomatic_corpus
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_SOURCE_DIR}/tests/idiomatic/run.py
            --python ${PTX_VENV_PYTHON} ${idiomatic_ptxas} $<TARGET_FILE:pyptx-codegen>)
endif()
