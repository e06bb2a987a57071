#!/usr/bin/env bash
# make-sdist.sh - the source distribution of pyptx-c, buildable with only a
# C compiler: it ships the lexer and parser that re2c and bison generate.
#
#   tools/make-sdist.sh [OUT_DIR] [PYTHON]   (default: dist, build/venv/bin/python)
#
# Copies the working tree's files (git's, and new ones it does not ignore)
# to a temporary directory, generates grammar/gen/ there with
# grammar/gen/SOURCES, the SHA-256 of the two inputs (cmake/grammar.cmake
# checks it), and asks scikit-build-core for the sdist (pyproject.toml:
# sdist.include).  The checkout itself never holds generated code.  PYTHON
# needs scikit-build-core.  Prints the sdist's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-dist}")
py=${2:-$root/build/venv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
git -C "$root" ls-files -z --cached --others --exclude-standard |
    (cd "$root" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
    tar -C "$root" --null -T - -cf - | tar -C "$tmp" -xf -
gen=$tmp/grammar/gen
mkdir -p "$gen"
# --no-debug-info / --no-lines: no #line naming this machine's paths
re2c -W --no-generation-date --no-debug-info -o "$gen/lexer.c" "$tmp/grammar/lexer.re"
bison -Wall -Wno-yacc --no-lines --defines="$gen/parser.h" -o "$gen/parser.c" "$tmp/grammar/parser.y"
sha() { sha256sum "$1" | cut -d' ' -f1; }
printf 'lexer.re %s\nparser.y %s\n' "$(sha "$tmp/grammar/lexer.re")" \
    "$(sha "$tmp/grammar/parser.y")" > "$gen/SOURCES"
cd "$tmp"
"$py" -c 'import sys; from scikit_build_core.build import build_sdist; print(sys.argv[1] + "/" + build_sdist(sys.argv[1]))' "$out"
