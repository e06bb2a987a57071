#!/usr/bin/env bash
# run-tests.sh - set up (tools/setup.sh) and run the whole test suite, then
# the same suite again built with AddressSanitizer + UBSan (build-asan),
# then the Python side of the allocation-failure sweep (build-faults).
# Fails when any of them has a failing test.
#
#   tools/run-tests.sh            the whole suite, as CI runs it
#   tools/run-tests.sh --quick    the tests labelled quick (tests/CMakeLists.txt:
#                                 under three minutes on two cores), build/ only
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build
if [ "${1:-}" = --quick ]; then
    cd build && exec ctest --output-on-failure -j "$(nproc)" -L '^quick$'
fi
rc=0
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 3000) || rc=1

# Sanitizer build: every target with -fsanitize=address,undefined, the first
# report aborting (cmake/sanitize.cmake), and the allocation-failure hook
# that tests/faults sweeps (PTX_FAULTS).  It reuses build/venv.  Run in the
# first pass only: tests labelled "fuzz" (the libFuzzer harnesses, sanitized
# already) and "valgrind" (valgrind cannot run ASan binaries), and by name
# install_and_package (links an outside consumer against the installed,
# here sanitized, libptx.a without -fsanitize).  No Python extension there
# (PTX_PYTHON=OFF): an ASan-built module cannot load into an uninstrumented
# python; python_valgrind checks it instead.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTX_SANITIZE=ON -DPTX_FAULTS=ON -DPTX_PYTHON=OFF \
      -DPTX_VENV_PYTHON="$PWD/build/venv/bin/python" >/dev/null
cmake --build build-asan -j "$(nproc)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
    ctest --output-on-failure -j "$(nproc)" --timeout 3000 \
          -LE 'fuzz|valgrind' -E '^install_and_package$') || rc=1

# The allocation-failure hook with the Python extension (an ASan-built one
# cannot load into this python): tests/faults/python_sweep.py alone.
cmake -S . -B build-faults -DCMAKE_BUILD_TYPE=Release -DPTX_FAULTS=ON -DPTX_PGO=OFF \
      -DPTX_VENV_PYTHON="$PWD/build/venv/bin/python" >/dev/null
cmake --build build-faults -j "$(nproc)" --target _core
(cd build-faults && ctest --output-on-failure -R '^faults_python$') || rc=1
exit $rc
