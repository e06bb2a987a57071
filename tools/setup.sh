#!/usr/bin/env bash
# setup.sh - everything a fresh Debian machine needs, then the build.
#
#   tools/setup.sh [BUILD_DIR]      (default: build)
#
# Installs the Debian packages the build and tests use (only those missing),
# makes BUILD_DIR/venv with pyptx pinned to 0.1.1 for the tests and the
# generated code, and builds everything.  Safe to run again: each step is
# skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
PYPTX_VERSION=0.1.1

packages=(cmake make gcc clang re2c bison libcmocka-dev libiberty-dev pkg-config python3 python3-venv python3-dev valgrind time)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x /usr/local/cuda/bin/ptxas ] && ! command -v ptxas >/dev/null; then
    echo "setup: warning: the CUDA toolkit (nvcc, ptxas, cuda.h) is not installed;" \
         "the ptxas and nvcc tests will fail" >&2
fi

# Python with pyptx for the tests and for running generated code, pytest
# and scikit-build-core for the Python package's (tests/python/), and
# NVIDIA's cuobjdump and nvdisasm, which the toolkit here lacks, for the
# resource figures of pyptx-diff's tree tests (tests/diff/trees/).
PY_PACKAGES=("pyptx==$PYPTX_VERSION" "pytest==9.2.0" "scikit-build-core==1.1.2"
             "nvidia-cuda-cuobjdump==13.5.37" "nvidia-cuda-nvdisasm==13.5.37")
if ! "$BUILD/venv/bin/python" -c "import importlib.metadata as m, sys; \
        want = dict(a.split('==') for a in sys.argv[1:]); \
        assert all(m.version(k) == v for k, v in want.items())" "${PY_PACKAGES[@]}" 2>/dev/null; then
    echo "setup: making $BUILD/venv with ${PY_PACKAGES[*]}"
    mkdir -p "$BUILD"
    rm -rf "$BUILD/venv"
    py=python3
    $py -m venv "$BUILD/venv" 2>/dev/null || { py=/usr/bin/python3; $py -m venv "$BUILD/venv"; }
    "$BUILD/venv/bin/pip" install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
fi

# Profile-guided build (cmake/pgo.cmake): an instrumented bench_frontend
# parses, prints and translates (plain and --sugar) the project's own
# corpus, then everything is compiled with that profile.  PTX_PGO=OFF tools/setup.sh skips it.
configure() {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPTX_PGO="$1" \
          -DPTX_VENV_PYTHON="$PWD/$BUILD/venv/bin/python" >/dev/null
}
cc_version=$(cc --version 2>/dev/null || true)
if [ "${PTX_PGO:-ON}" != OFF ] && [[ $cc_version == *"Free Software Foundation"* ]]; then
    configure GENERATE
    rm -rf "$BUILD/pgo"
    cmake --build "$BUILD" -j "$(nproc)" --target bench_frontend
    for mode in exact canonical codegen sugar; do
        "$BUILD/bench_frontend" --mode "$mode" --repeat 2 tests/corpus >/dev/null
    done
    configure USE
else
    configure OFF
fi
cmake --build "$BUILD" -j "$(nproc)"
