#!/bin/sh
# pyptx-codegen --verify.  usage: verify_test.sh CODEGEN PYTHON
# PYTHON has pyptx 0.1.1.  A sugar pass made unfaithful on purpose comes
# from verify/fault.py, run as --python through a wrapper: the real pyptx,
# tracing one construct wrong (see there why the fault is not in the
# program).
set -u
CG=$1
PY=$2
D=$(cd "$(dirname "$0")" && pwd)/verify
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }
wrapper() {  # wrapper NAME FAULT: a --python that injects FAULT
    printf '#!/bin/sh\nVERIFY_FAULT=%s exec "%s" "%s" "$@"\n' "$2" "$PY" "$D/fault.py" > "$T/$1"
    chmod +x "$T/$1"
}
wrapper loopfault loop
wrapper retfault ret
wrapper raisefault raise
mkdir "$T/old" "$T/bad"      # pyptx of another version; one that fails to import
printf '__version__ = "9.9"\n' > "$T/old/pyptx.py"
printf 'raise ImportError("broken pyptx")\n' > "$T/bad/pyptx.py"
for v in old bad; do
    printf '#!/bin/sh\nPYTHONPATH="%s" exec "%s" "$@"\n' "$T/$v" "$PY" > "$T/py$v"
    chmod +x "$T/py$v"
done
L=$D/loops.ptx
echo keep > "$T/keep.py"

# a pass unfaithful on one kernel: dropped from that kernel only
"$CG" --sugar --verify --python "$T/loopfault" "$L" > "$T/out.py" 2> "$T/err"; rc=$?
check "fault: exit 0" "[ $rc -eq 0 ]"
check "fault: one line says which kernel lost which pass and why" \
  "[ \$(wc -l < '$T/err') -eq 1 ] && grep -q '^pyptx-codegen: .*loops.ptx: kernel l: dropped passes loops (traced line 10 .nop;. where the input has line 9 .@%p1 bra L;.)\$' '$T/err'"
check "fault: kernel l is plain, kernel m keeps its loop" \
  "! grep -q 'ptx.loop(\"L\"' '$T/out.py' && grep -q 'ptx.label(\"L\")' '$T/out.py' && grep -q 'ptx.loop(\"M\"' '$T/out.py'"
check "fault: the output traces back under the fault" "'$T/loopfault' '$T/out.py' | cmp -s - '$L'"
"$CG" --sugar --verify --python "$T/loopfault" "$L" -o "$T/o.py" 2> /dev/null
check "fault: -o writes the same" "cmp -s '$T/o.py' '$T/out.py'"
"$CG" --sugar=loops --verify --python "$T/loopfault" "$L" 2> /dev/null | grep -c 'ptx.loop(' > "$T/n"
check "fault: --sugar=loops keeps the other kernel's loop" "[ \$(cat '$T/n') -eq 1 ]"

# a pass whose code raises while tracing: the exception is the reason
"$CG" --sugar --verify --python "$T/raisefault" "$L" > "$T/out2.py" 2> "$T/err"
check "raise: the exception said" \
  "grep -q '^pyptx-codegen: .*: kernel l: dropped passes loops (tracing raised RuntimeError: fault.py: ptx.loop(\"L\"))\$' '$T/err'"
check "raise: the same output as a wrong trace" "cmp -s '$T/out.py' '$T/out2.py'"

# nothing dropped: byte for byte what --sugar (or plain) writes
for f in "$L" "$D/../../corpus/hand/"*.ptx; do
    "$CG" --sugar "$f" > "$T/s.py"
    "$CG" --sugar --verify --python "$PY" "$f" > "$T/v.py" 2> "$T/err"; rc=$?
    check "nothing dropped: $f identical to --sugar" "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && cmp -s '$T/s.py' '$T/v.py'"
done
"$CG" "$L" > "$T/s.py"
PYPTX_PYTHON=$PY "$CG" --verify "$L" > "$T/v.py" 2> "$T/err"
check "plain --verify (PYPTX_PYTHON) identical to plain" "cmp -s '$T/s.py' '$T/v.py' && [ ! -s '$T/err' ]"

# a sugar bug found by hand (whether or not it is fixed): the output traces back
"$CG" --sugar --verify --python "$PY" "$D/repeat_bug.ptx" > "$T/r.py" 2> /dev/null
check "repeat_bug.ptx: the output traces back" "'$PY' '$T/r.py' | cmp -s - '$D/repeat_bug.ptx'"

# no pyptx 0.1.1: exit 3, a clear error, -o untouched, no temp file
for p in /nonexistent/python "$T/pyold" "$T/pybad"; do
    cp "$T/keep.py" "$T/o.py"
    "$CG" --sugar --verify --python "$p" "$L" -o "$T/o.py" 2> "$T/err"; rc=$?
    check "no pyptx ($p): exit 3" "[ $rc -eq 3 ]"
    check "no pyptx ($p): the error says so" \
      "grep -q '^pyptx-codegen: error: --verify needs pyptx 0.1.1: $p: ' '$T/err'"
    check "no pyptx ($p): -o untouched" "cmp -s '$T/o.py' '$T/keep.py'"
done
check "old pyptx: its version named" "\"$CG\" --verify --python '$T/pyold' '$L' 2>&1 | grep -q 'found pyptx 9.9'"
check "broken pyptx: the ImportError named" "\"$CG\" --verify --python '$T/pybad' '$L' 2>&1 | grep -q 'import pyptx failed: ImportError: broken pyptx'"

# not even plain mode traces back: exit 1, nothing written
cp "$T/keep.py" "$T/o.py"
"$CG" --sugar --verify --python "$T/retfault" "$L" -o "$T/o.py" 2> "$T/err"; rc=$?
check "nothing traces back: exit 1" "[ $rc -eq 1 ]"
check "nothing traces back: said" "grep -q 'error: --verify: not even plain mode traces back' '$T/err'"
check "nothing traces back: -o untouched" "cmp -s '$T/o.py' '$T/keep.py'"
check "no temp file left" "[ \$(ls '$T' | grep -c tmp) -eq 0 ]"
[ $fail -eq 0 ] && echo "verify tests: ok"
exit $fail
