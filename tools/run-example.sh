#!/usr/bin/env bash
# run-example.sh - set up (tools/setup.sh), then the main job on the bundled
# examples: transpile a bundled kernel with --sugar, run the Python through
# pyptx 0.1.1 and check that it gives back the kernel's PTX, then round-trip
# the bundled corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build >/dev/null
example=tests/corpus/nvcc/hopper_tma_sm_90a.ptx

echo "== build/pyptx-codegen $example --sugar --stats -o build/example.py"
build/pyptx-codegen "$example" --sugar --stats -o build/example.py
echo "-- build/example.py, from its first kernel:"
# (awk reads the file itself: a `| head` would end sed by SIGPIPE, which
# pipefail turns into a failure whenever sed had not finished writing)
awk '/^def /{on = 1} on {print; if (++n == 40) exit}' build/example.py
echo "== build/venv/bin/python build/example.py > build/example.ptx"
build/venv/bin/python build/example.py > build/example.ptx
echo "== build/pyptx-diff $example build/example.ptx   (0: same statements)"
build/pyptx-diff --ignore-labels --ignore-names "$example" build/example.ptx && echo "same"
echo "== build/pyptx-roundtrip --canonical tests/corpus"
build/pyptx-roundtrip --canonical --jobs "$(nproc)" tests/corpus
