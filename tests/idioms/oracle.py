"""What tests/idioms/*.py share: pyptx as the oracle of a sugar pass.

A test traces a kernel under a recorder that notes, instruction by
instruction, which pyptx function emitted it; decompile() runs the pass on
the traced module, traces the result under the same recorder, and compares
the two recordings and the two texts."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyptx"))
import ptxtok  # noqa: E402


def load_generated(gen, name):
    """The generated file `gen` read by the rule every checker shares
    (_verify.Generated): .kernels by PTX entry name, .module()."""
    with open(gen, encoding="utf-8") as f:
        return ptxtok.rules.Generated(f.read(), gen, name + "_decompiled")


def decompile(codegen, passes, kernel, name, record):
    """Prints the differences and the `N passed, N failed` line; returns
    the exit status.  `record` is the recorder's list (emptied per trace);
    `name` the kernel's entry."""

    def trace(k):
        del record[:]
        text = k.ptx()
        return text, list(record)

    module, want = trace(kernel)
    work = tempfile.mkdtemp(prefix="idioms-")
    src = os.path.join(work, name + ".ptx")
    gen = os.path.join(work, name + ".py")
    with open(src, "w") as f:
        f.write(module)
    with open(gen, "wb") as f:
        f.write(subprocess.run([codegen, "--sugar=" + passes, src], check=True,
                               capture_output=True).stdout)
    try:
        text, got = trace(load_generated(gen, name).kernels[name])
    except Exception as e:  # e.g. a wrapper pyptx rejects: the first is enough
        print("FAIL: the decompiled kernel does not trace: %s" % str(e).splitlines()[0])
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else None
        g = got[i] if i < len(got) else None
        if w == g:
            passed += 1
            continue
        failed += 1
        if failed <= 20:
            print("FAIL instruction %d: pyptx %s\n                     decompiled %s" % (i, w, g))
    helpers = sum(1 for w in want if w[0] not in ("__call__", "inst"))
    print("instructions: %d, %d of them emitted by the pyptx constructs under test (--sugar=%s)" % (len(want), helpers, passes))
    if text != module:
        print("FAIL: the decompiled module traces to different text")
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0
