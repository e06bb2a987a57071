# Random pyptx DSL programs through --sugar (tools/dslgen/run.py): each
# generated kernel traced, decompiled, run and compared with the harness's
# sugar rule.  regressions/ holds minimized programs that --sugar once got
# wrong, replayed every run; the random run's seed comes from the clock.
# By hand: build/venv/bin/python tools/dslgen/run.py --bin build --seconds 60
set(DSLGEN_RUN ${CMAKE_SOURCE_DIR}/tools/dslgen/run.py)
if(TARGET pyptx-codegen)
  add_test(NAME dslgen_replay
    COMMAND ${PTX_VENV_PYTHON} ${DSLGEN_RUN} --bin ${CMAKE_BINARY_DIR} --jobs 2
            --replay ${CMAKE_CURRENT_SOURCE_DIR}/dslgen/regressions)
  # the seed comes from the clock and is printed first: a failure is
  # reproduced with --seed S (and shown with --show S:I)
  add_test(NAME dslgen_random_60s
    COMMAND ${PTX_VENV_PYTHON} ${DSLGEN_RUN} --bin ${CMAKE_BINARY_DIR} --jobs 2
            --seconds 60)
  set_tests_properties(dslgen_replay dslgen_random_60s PROPERTIES
    LABELS dslgen TIMEOUT 300)
endif()
