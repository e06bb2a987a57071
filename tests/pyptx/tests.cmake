# pyptx-codegen round-trip tests (see tests/pyptx/harness.py and
# src/codegen/DESIGN.md).  The harness needs a python with pyptx 0.1.1
# (PTX_VENV_PYTHON, made by tools/setup.sh).  Every file must pass; entries
# pyptx cannot express are listed by the harness and count only when the
# generated UNSUPPORTED reason is verified.
set(PYPTX_HARNESS ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/harness.py)

add_test(NAME pyptx_harness_selftest
  COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/selftest.py
          --python ${PTX_VENV_PYTHON})

if(TARGET pyptx-codegen)
  add_test(NAME pyptx_codegen_plain_own
    COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
            --mode plain --jobs 2 -q
            $<TARGET_FILE:pyptx-codegen> ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
  add_test(NAME pyptx_codegen_plain_shared
    COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
            --mode plain --jobs 2 -q
            $<TARGET_FILE:pyptx-codegen> ${PTX_SHARED_CORPUS})
  add_test(NAME pyptx_codegen_sugar
    COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
            --mode sugar --jobs 2 -q
            $<TARGET_FILE:pyptx-codegen> ${PTX_SHARED_CORPUS})
  set_tests_properties(pyptx_codegen_plain_own pyptx_codegen_plain_shared
    pyptx_codegen_sugar PROPERTIES TIMEOUT 1800)
  # CLI behaviour: errors, --name, -o atomicity
  add_test(NAME pyptx_codegen_cli
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/cli_test.sh
            $<TARGET_FILE:pyptx-codegen> ${PTX_VENV_PYTHON})
  # --verify: a pass unfaithful on purpose (pyptx/verify/fault.py), no
  # pyptx, nothing traces back, and nothing dropped is --sugar's output
  add_test(NAME pyptx_codegen_verify
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/verify_test.sh
            $<TARGET_FILE:pyptx-codegen> ${PTX_VENV_PYTHON})
endif()

# ---------------------------------------------------------------------------
# Sugar passes (src/sugar/, issue 4): sugar mode over the project corpus as
# well (the shared corpus is pyptx_codegen_sugar above).  Same harness, same
# rules: every file must trace back to its PTX up to a consistent renaming.
if(TARGET pyptx-codegen)
  add_test(NAME pyptx_codegen_sugar_own
    COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
            --mode sugar --jobs 2 -q
            $<TARGET_FILE:pyptx-codegen> ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
  set_tests_properties(pyptx_codegen_sugar_own PROPERTIES TIMEOUT 1800)
  # and --sugar never makes a file longer than plain mode
  add_test(NAME pyptx_codegen_sugar_not_longer
    COMMAND ${PTX_VENV_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/sugar_lines.py
            $<TARGET_FILE:pyptx-codegen> ${CMAKE_CURRENT_SOURCE_DIR}/corpus ${PTX_SHARED_CORPUS})
  # and against pyptx 0.1.1's own --sugar, file by file: nothing the file
  # does not need (unused imports, uncalled helpers, KERNELS, a needless
  # _MODULE), and no longer but for what pyptx's output lacks
  # (tools/sugar_report.py --lines)
  if(EXISTS "${PTX_SHARED_CORPUS}")
    add_test(NAME pyptx_codegen_sugar_vs_pyptx
      COMMAND ${PTX_VENV_PYTHON} ${CMAKE_SOURCE_DIR}/tools/sugar_report.py --lines
              --python ${PTX_VENV_PYTHON} --jobs 2
              $<TARGET_FILE:pyptx-codegen> ${PTX_SHARED_CORPUS})
    set_tests_properties(pyptx_codegen_sugar_vs_pyptx PROPERTIES TIMEOUT 900)
  endif()
endif()

# ---------------------------------------------------------------------------
# Issue 6: the generated Python's module JIT-compiles (CUDA driver) to the
# same code sections as the input, plain and sugar.  Needs a GPU: reported as
# skipped (77) where libcuda.so.1 or a device is missing.
if(TARGET pyptx-codegen AND TARGET jit_check)
  foreach(mode plain sugar)
    add_test(NAME pyptx_codegen_jit_gpu_${mode}
      COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
              --mode ${mode} --jobs 2 -q --jit $<TARGET_FILE:jit_check>
              $<TARGET_FILE:pyptx-codegen> ${CMAKE_CURRENT_SOURCE_DIR}/corpus/nvcc
              ${CMAKE_CURRENT_SOURCE_DIR}/corpus/triton ${PTX_SHARED_CORPUS})
    set_tests_properties(pyptx_codegen_jit_gpu_${mode} PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 1800)
  endforeach()
endif()

# ---------------------------------------------------------------------------
# --no-debug: every nvcc and Triton corpus file (-lineinfo and -G output
# among them) and the hand-written ones, plain and sugar, traces back to
# its text without debug data (tools/ptx_nodebug), and to the input up to
# pyptx-diff --ignore-debug, with no .loc, .file, @@DWARF, .debug_* token
# and no label that nothing names left (harness.py --no-debug).  Then the
# command line: errors, pieces, --jobs, standard input, --verify.
if(TARGET pyptx-codegen AND TARGET ptx_nodebug)
  foreach(mode plain sugar)
    add_test(NAME pyptx_codegen_nodebug_${mode}
      COMMAND ${PTX_VENV_PYTHON} ${PYPTX_HARNESS} --python ${PTX_VENV_PYTHON}
              --mode ${mode} --jobs 2 -q
              --no-debug $<TARGET_FILE:ptx_nodebug> --diff $<TARGET_FILE:pyptx-diff>
              $<TARGET_FILE:pyptx-codegen> ${CMAKE_CURRENT_SOURCE_DIR}/corpus/nvcc
              ${CMAKE_CURRENT_SOURCE_DIR}/corpus/triton ${CMAKE_CURRENT_SOURCE_DIR}/corpus/hand
              ${PTX_SHARED_CORPUS}/pyptx/external/triton)
    set_tests_properties(pyptx_codegen_nodebug_${mode} PROPERTIES TIMEOUT 1800)
  endforeach()
  add_test(NAME pyptx_codegen_nodebug_cli
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/pyptx/nodebug_test.sh
            $<TARGET_FILE:pyptx-codegen> ${PTX_VENV_PYTHON} $<TARGET_FILE:ptx_nodebug>
            ${CMAKE_CURRENT_SOURCE_DIR}/corpus/nvcc/async_copy_sm_100a_G.ptx)
endif()
