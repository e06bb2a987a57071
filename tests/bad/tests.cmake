# tests/bad: malformed and extreme input for pyptx-roundtrip (run.py).
# Committed cases are NAME.ptx + NAME.expect (the exact first line of the
# diagnostic, or "accepted"); the big ones are generated at test time.  Any
# exit status other than 0 or 1 (a signal included) fails.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(BAD_DIR ${CMAKE_CURRENT_LIST_DIR})

foreach(case committed huge_line deep_nesting many_params 2gib truncations emit_safe
    link_loops)
  add_test(NAME bad_${case}
    COMMAND ${Python3_EXECUTABLE} ${BAD_DIR}/run.py
      --roundtrip $<TARGET_FILE:pyptx-roundtrip> ${case})
  set_tests_properties(bad_${case} PROPERTIES TIMEOUT 600)
endforeach()
# a large module, a large function and a large table in pieces:
# pyptx-roundtrip's and pyptx-codegen's
foreach(case pieces big_function big_table)
  add_test(NAME bad_${case}
    COMMAND ${Python3_EXECUTABLE} ${BAD_DIR}/run.py
      --roundtrip $<TARGET_FILE:pyptx-roundtrip> --codegen $<TARGET_FILE:pyptx-codegen> ${case})
  set_tests_properties(bad_${case} PROPERTIES TIMEOUT 600)
endforeach()
# 4000+ files: ~10 s, but minutes under ASan on a busy machine
set_tests_properties(bad_truncations PROPERTIES TIMEOUT 1800)
# the 2 GiB case checks that the input is refused without being read (its
# peak memory): keep other tests, whose memory is the machine's too, off meanwhile
set_tests_properties(bad_2gib PROPERTIES RUN_SERIAL TRUE)

# --json --jobs 1 and --jobs 3 give the same bytes over both corpora and
# the bad inputs.
add_test(NAME roundtrip_determinism
  COMMAND ${Python3_EXECUTABLE} ${BAD_DIR}/run.py --roundtrip $<TARGET_FILE:pyptx-roundtrip>
    --shared ${PTX_SHARED_CORPUS} determinism)

# valgrind memcheck over `pyptx-roundtrip --canonical` on both corpora and
# the bad inputs.  Label "valgrind": the sanitizer build skips it (ASan and
# valgrind do not mix).  Fails when valgrind is missing.
add_test(NAME valgrind_roundtrip
  COMMAND ${Python3_EXECUTABLE} ${BAD_DIR}/run.py --roundtrip $<TARGET_FILE:pyptx-roundtrip>
    --shared ${PTX_SHARED_CORPUS} valgrind)
set_tests_properties(valgrind_roundtrip PROPERTIES LABELS valgrind TIMEOUT 3000)

# valgrind memcheck over the code generator (plain and --sugar) and the
# diff, on the compiler output of both corpora.
if(TARGET pyptx-codegen AND TARGET pyptx-diff)
  add_test(NAME valgrind_tools
    COMMAND ${Python3_EXECUTABLE} ${BAD_DIR}/valgrind_tools.py
      --codegen $<TARGET_FILE:pyptx-codegen> --diff $<TARGET_FILE:pyptx-diff>
      ${CMAKE_SOURCE_DIR}/tests/corpus/nvcc ${CMAKE_SOURCE_DIR}/tests/corpus/triton
      ${PTX_SHARED_CORPUS})
  set_tests_properties(valgrind_tools PROPERTIES LABELS valgrind TIMEOUT 3000)
endif()
