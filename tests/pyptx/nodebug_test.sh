#!/bin/sh
# pyptx-codegen --no-debug on the command line: errors, and the same Python
# whichever way the text is taken (in pieces, whole, on threads, from
# standard input, checked by --verify), which is the filtered text's
# (tools/ptx_nodebug).  usage: nodebug_test.sh CODEGEN PYTHON FILTER BIG.ptx
# where BIG.ptx is a file with debug data that is two pieces or more
# without it.
set -u
CG=$1
PY=$2
FILTER=$3
BIG=$4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }

# errors: the diagnostic of the input, nothing written
printf '.version 8.5\n.target sm_90a\n\t.loc 1 2 3\n.visible .entry bad( {\n' > "$T/bad.ptx"
echo keep > "$T/out.py"
"$CG" --no-debug "$T/bad.ptx" -o "$T/out.py" 2> "$T/err"; rc=$?
check "parse error exits 1" "[ $rc -eq 1 ]"
check "parse error is the input's, at its line" "grep -q 'bad.ptx:4:[0-9]*: error' '$T/err'"
check "previous output untouched" "[ \"\$(cat '$T/out.py')\" = keep ]"
check "no temp file left" "[ \$(ls '$T' | grep -c tmp) -eq 0 ]"

# the same Python every way: it is the filtered text's (that file, under
# the input's name, so that the header comment is the same)
mkdir "$T/f"
NAME=$(basename "$BIG")
"$FILTER" "$BIG" > "$T/f/$NAME"
check "the filtered file is two pieces or more" "[ \$(wc -c < '$T/f/$NAME') -ge 32768 ]"
"$CG" "$T/f/$NAME" > "$T/want.py"
"$CG" --no-debug "$BIG" > "$T/pieces.py"
check "in pieces: the filtered text's Python" "cmp -s '$T/pieces.py' '$T/want.py'"
"$CG" --no-debug --jobs 3 "$BIG" > "$T/jobs.py"
check "--jobs 3: the same" "cmp -s '$T/jobs.py' '$T/want.py'"
"$CG" --no-debug --stats "$BIG" > "$T/whole.py" 2> /dev/null
check "whole (--stats): the same" "cmp -s '$T/whole.py' '$T/want.py'"
"$CG" --no-debug - < "$BIG" | tail -n +2 > "$T/stdin.py"
check "standard input: the same, but for the header's name" "tail -n +2 '$T/want.py' | cmp -s - '$T/stdin.py'"
"$CG" --sugar "$T/f/$NAME" > "$T/want_sugar.py"
"$CG" --sugar --no-debug --jobs 2 "$BIG" > "$T/sugar.py"
check "--sugar --jobs 2: the filtered text's" "cmp -s '$T/sugar.py' '$T/want_sugar.py'"
"$CG" --sugar --no-debug --verify --python "$PY" "$BIG" > "$T/verified.py" 2> "$T/verr"; rc=$?
check "--verify checks against the filtered text: all trace back" "[ $rc -eq 0 ] && [ ! -s '$T/verr' ] && cmp -s '$T/verified.py' '$T/want_sugar.py'"
check "and nothing of the debug data is left" "! grep -qE '[.]loc\\b|[.]file\\b|@@DWARF|[.]debug_' '$T/verified.py'"
[ $fail -eq 0 ] && echo "--no-debug cli tests: ok"
exit $fail
