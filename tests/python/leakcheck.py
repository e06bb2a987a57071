"""leakcheck.py - the extension's calls, many times, under valgrind
(tests.cmake: python_valgrind): every block it allocates must be freed,
and no access may be invalid.

    python leakcheck.py --valgrind [N]   runs itself under valgrind and fails
                                         on a report that names the extension
    python leakcheck.py [N]              the calls alone

CPython's own reports (its start-up reads uninitialised bytes on purpose)
do not count: a report counts when a frame of its stack is in pyptx_c.
"""
import os
import re
import subprocess
import sys


def under_valgrind(n):
    cmd = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect",
           "--num-callers=40", sys.executable, os.path.abspath(__file__), str(n)]
    env = dict(os.environ, PYTHONMALLOC="malloc")
    if "PYPTX_C_PATH" in env:
        env["PYTHONPATH"] = env["PYPTX_C_PATH"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    reports = re.split(r"\n==\d+== \n", r.stderr)
    ours = [x for x in reports if "_core.cpython" in x or "pyptx_c" in x]
    if r.returncode != 0 or "ok" not in r.stdout or ours:
        sys.stderr.write("".join(ours[:5]) or r.stderr[-3000:])
        return 1
    lost = re.findall(r"definitely lost: ([\d,]+) bytes", r.stderr)
    print("ok: %d calls of each, no report names the extension (definitely lost: %s)"
          % (n, lost[0] if lost else "?"))
    return 0


if len(sys.argv) > 1 and sys.argv[1] == "--valgrind":
    sys.exit(under_valgrind(int(sys.argv[2]) if len(sys.argv) > 2 else 100))

import pyptx_c  # noqa: E402

SRC = (".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n"
       "{\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n"
       "\tsetp.eq.u64 %p1, %rd1, 0;\n\t@%p1 bra $L;\n\tadd.s64 %rd2, %rd1, 8;\n$L:\n\tret;\n}\n")

for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 200):
    m = pyptx_c.parse(SRC, name="k.ptx")
    assert m.emit() == SRC
    m.canonical()
    for i in m.instructions():
        (i.opcode, i.modifiers, i.operands, i.predicate, i.line, i.col, i.text)
    [(f.name, f.params, f.linking, [s.kind for s in f.statements]) for f in m.entries]
    pyptx_c.ptx_to_python(SRC)
    pyptx_c.ptx_to_python(SRC, sugar=True, kernel_name="gemm")
    pyptx_c.diff(m, SRC.replace("8;", "16;"), ignore_regs=True)
    pyptx_c.diff(m, SRC.replace("8;", "16;"), format="json")
    pyptx_c.diff(SRC, SRC.replace("8;", "16;"), format="stat", context=0)
    for bad in (SRC.replace("ret;", "ret"), "\x00", ".entry k( {"):
        try:
            pyptx_c.parse(bad)
        except pyptx_c.PTXSyntaxError:
            pass
    try:
        pyptx_c.diff(SRC, "ld.global")
    except pyptx_c.PTXSyntaxError:
        pass
print("ok")
