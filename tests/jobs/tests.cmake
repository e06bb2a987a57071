# tests/jobs: a module parsed in pieces on several threads is the serial
# parse (parse_jobs_check.c): both corpora, each file cut at every
# function's end, and 10,000 corrupted variants of them.
add_executable(parse_jobs_check ${CMAKE_CURRENT_LIST_DIR}/parse_jobs_check.c)
target_include_directories(parse_jobs_check PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(parse_jobs_check PRIVATE ptx)
add_test(NAME parse_jobs
  COMMAND parse_jobs_check --corrupt 10000 ${CMAKE_SOURCE_DIR}/tests/corpus
    ${PTX_SHARED_CORPUS})
set_tests_properties(parse_jobs PROPERTIES
  PASS_REGULAR_EXPRESSION "[1-9][0-9]* parses in pieces, [0-9]+ errors, 0 differ\n"
  TIMEOUT 1800)
