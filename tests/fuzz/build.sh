#!/usr/bin/env bash
# build.sh - compile the libFuzzer harnesses with clang, outside CMake.
#
#   tests/fuzz/build.sh [OUTDIR [FUZZER...]]   (default: build-fuzz, all)
#
# Generates the lexer (re2c) and parser (bison) into OUTDIR/gen and links
# OUTDIR/fuzz_front, and OUTDIR/fuzz_codegen when include/ptx/codegen.h and
# src/codegen/*.c exist (or only the FUZZERs named), with
# -fsanitize=fuzzer,address,undefined.  Fails
# (exit 1) when clang, re2c or bison is missing: a fuzz test must never pass
# by not running.  CLANG=... picks another clang.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-fuzz}
shift || true
want=("$@")
wanted() { [ ${#want[@]} -eq 0 ] && return 0; local w; for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
cc=${CLANG:-clang}
for tool in "$cc" re2c bison; do
    command -v "$tool" >/dev/null ||
        { echo "fuzz/build.sh: error: $tool not found (apt-get install clang re2c bison)" >&2; exit 1; }
done
"$cc" --version | grep -q clang ||
    { echo "fuzz/build.sh: error: $cc is not clang (libFuzzer needs clang)" >&2; exit 1; }
mkdir -p "$out/gen"
out=$(cd "$out" && pwd)

# generated sources, redone only when the grammar is newer
if [ ! -s "$out/gen/lexer.c" ] || [ "$root/grammar/lexer.re" -nt "$out/gen/lexer.c" ]; then
    re2c -W --no-generation-date -o "$out/gen/lexer.c" "$root/grammar/lexer.re"
fi
if [ ! -s "$out/gen/parser.c" ] || [ "$root/grammar/parser.y" -nt "$out/gen/parser.c" ]; then
    bison -Wall -Wno-yacc --defines="$out/gen/parser.h" -o "$out/gen/parser.c" "$root/grammar/parser.y"
fi

flags=(-std=gnu11 -g -O1 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -I"$root/include" -I"$root/src" -I"$out/gen")
# (the base under the front end and printers: the arena, the output
# buffer, and the threads the parallel parse and printers run on)
front_util=("$root/src/util/threads.c" "$root/src/util/arena.c" "$root/src/util/buf.c"
            "$root/src/util/alloc.c")
front=("$root"/src/front/*.c "$root"/src/emit/*.c "${front_util[@]}"
       "$out/gen/lexer.c" "$out/gen/parser.c")

link() { # name sources...
    local name=$1; shift
    local tmp="$out/$name.tmp.$$"
    "$cc" "${flags[@]}" "$@" -o "$tmp" -lm -lpthread
    mv -f "$tmp" "$out/$name"
    echo "fuzz/build.sh: built $out/$name"
}

# rebuild a fuzzer only when one of its inputs is newer than it
stale() { # target sources...
    local t=$1; shift
    [ -x "$t" ] || return 0
    local f
    for f in "$@" "$root"/include/ptx/*.h "$root"/src/front/*.h "$0"; do
        [ "$f" -nt "$t" ] && return 0
    done
    return 1
}

if wanted fuzz_front; then
    srcs=("$root/tests/fuzz/fuzz_front.c" "${front[@]}")
    if stale "$out/fuzz_front" "${srcs[@]}"; then link fuzz_front "${srcs[@]}"; fi
fi

# The codegen fuzzer, once the code generator exists: the front end plus
# src/codegen (and src/sugar, src/util where they exist).
if wanted fuzz_codegen; then
    if [ -f "$root/include/ptx/codegen.h" ] && compgen -G "$root/src/codegen/*.c" >/dev/null; then
        srcs=("$root/tests/fuzz/fuzz_codegen.c" "${front[@]}" "$root"/src/codegen/*.c)
        for d in sugar util; do
            for f in "$root"/src/$d/*.c; do   # (front_util is in front already)
                [ -e "$f" ] && [[ " ${front_util[*]} " != *" $f "* ]] && srcs+=("$f")
            done
        done
        # src/sugar demangles C++ names with libiberty's cplus_demangle
        libs=()
        lib=$("$cc" -print-file-name=libiberty.a)
        [ "$lib" != libiberty.a ] && libs+=("$lib")
        if stale "$out/fuzz_codegen" "${srcs[@]}" "$root"/src/codegen/*.h; then
            link fuzz_codegen "${srcs[@]}" "${libs[@]}"
        fi
    elif [ ${#want[@]} -gt 0 ]; then
        echo "fuzz/build.sh: error: fuzz_codegen needs include/ptx/codegen.h and src/codegen/*.c" >&2
        exit 1
    fi
fi
exit 0
