#!/usr/bin/env bash
# run-tests.sh - set up (tools/setup.sh) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 3000
