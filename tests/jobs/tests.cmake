# tests/jobs: what several threads make of a module is what one makes
# (jobs_check.c): the parse, the printed PTX, the generated Python and the
# diff report, on both corpora, each file cut at every function's end, and
# the parse (and the diff against the original) on 10,000 corrupted
# variants of them.  And the parse with fused tokens (src/front/yylex.h)
# against the parse a token at a time, on all of them.
add_executable(jobs_check ${CMAKE_CURRENT_LIST_DIR}/jobs_check.c)
target_include_directories(jobs_check PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(jobs_check PRIVATE ptx_cli ptx)
add_test(NAME jobs
  COMMAND jobs_check --corrupt 10000 ${CMAKE_SOURCE_DIR}/tests/corpus
    ${PTX_SHARED_CORPUS})
set_tests_properties(jobs PROPERTIES
  PASS_REGULAR_EXPRESSION "[1-9][0-9]* parses in pieces, [0-9]+ errors, 0 differ\n"
  TIMEOUT 1800)
