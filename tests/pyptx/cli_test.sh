#!/bin/sh
# pyptx-codegen command-line behaviour.  usage: cli_test.sh CODEGEN PYTHON
set -u
CG=$1
PY=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }

cat > "$T/one.ptx" <<'P'
.version 8.5
.target sm_90a
.address_size 64

.visible .entry one(
	.param .u64 a
)
{
	ret;
}
P
cat "$T/one.ptx" > "$T/two.ptx"
printf '\n.visible .entry two()\n{\n\tret;\n}\n' >> "$T/two.ptx"
printf '.version 8.5\n.target sm_90a\n.visible .entry bad( {\n' > "$T/bad.ptx"

"$CG" "$T/one.ptx" -o "$T/out.py"; check "-o writes" "[ \$? -eq 0 ] && [ -s '$T/out.py' ]"
check "module round-trips" "'$PY' '$T/out.py' | cmp -s - '$T/one.ptx'"
cp "$T/out.py" "$T/keep.py"
"$CG" "$T/bad.ptx" -o "$T/out.py" 2> "$T/err"; rc=$?
check "parse error exits 1" "[ $rc -eq 1 ]"
check "parse error is reported" "grep -q 'bad.ptx:3:.*error' '$T/err'"
check "previous output untouched" "cmp -s '$T/out.py' '$T/keep.py'"
check "no temp file left" "[ \$(ls '$T' | grep -c tmp) -eq 0 ]"
"$CG" --name two "$T/two.ptx" > /dev/null 2> "$T/err"; rc=$?
check "--name with two entries fails" "[ $rc -eq 1 ] && grep -q 'exactly one .entry' '$T/err'"
"$CG" --name renamed - < "$T/one.ptx" > "$T/r.py"
check "--name renames, stdin works" "'$PY' '$T/r.py' | grep -q '^.visible .entry renamed('"
"$CG" --sugar "$T/one.ptx" > /dev/null; check "--sugar works" "[ \$? -eq 0 ]"
"$CG" --sugar=nosuchpass "$T/one.ptx" > /dev/null 2>&1; rc=$?
check "unknown pass is a usage error" "[ $rc -eq 2 ]"
# --stats describes the PTX: a loop raised by sugar still holds its
# instructions (label, body, back edge)
printf '.version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry l()\n{\n\t.reg .pred %%p<2>;\nL:\n\tnop;\n\t@%%p1 bra L;\n\tret;\n}\n' > "$T/loop.ptx"
"$CG" --stats "$T/loop.ptx" 2> "$T/plain.st" > /dev/null
"$CG" --sugar=loops --stats "$T/loop.ptx" 2> "$T/sugar.st" > /dev/null
check "--stats counts the loop's instructions" "grep -q 'insts=3 ' '$T/plain.st' && grep -q 'insts=3 ' '$T/sugar.st' && grep -q 'pass loops: 1' '$T/sugar.st'"
"$CG" "$T/one.ptx" > "$T/a.py"; "$CG" "$T/one.ptx" > "$T/b.py"
check "deterministic" "cmp -s '$T/a.py' '$T/b.py'"
[ $fail -eq 0 ] && echo "cli tests: ok"
exit $fail
