#!/usr/bin/env bash
# run-example.sh - set up, then the main job on the bundled examples:
# transpile a bundled kernel with --sugar and run the result through pyptx,
# and round-trip the bundled corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build >/dev/null
example=tests/corpus/nvcc/saxpy_sm_90a.ptx
if [ -x build/pyptx-codegen ]; then
    echo "== pyptx-codegen --sugar $example > build/example.py"
    build/pyptx-codegen "$example" --sugar -o build/example.py
    head -n 40 build/example.py
    echo "== python build/example.py  (pyptx traces it back to PTX)"
    build/venv/bin/python build/example.py > build/example.ptx
    head -n 20 build/example.ptx
fi
echo "== pyptx-roundtrip --canonical tests/corpus"
build/pyptx-roundtrip --canonical --jobs "$(nproc)" tests/corpus
