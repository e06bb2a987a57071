#!/usr/bin/env python3
"""Self-test of harness.py against hand-written generated files.

    selftest.py [--python PY]

Runs the harness with selftest/fake_codegen.py (which prints the fixture
selftest/NAME.gen.py or NAME.sugar.py) and checks that every fixture passes
or fails as expected, that the summary line and exit status are right, and
that byte-identical modules are counted.  Exit status 0 when all hold."""
import argparse
import io
import os
import re
import sys
import contextlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

SELF = os.path.join(HERE, "selftest")
FAKE = os.path.join(SELF, "fake_codegen.py")

# name -> (plain mode passes, sugar mode passes, reason fragment when it fails in plain mode)
EXPECT = {
    "tiny":      (True,  True,  None),
    "nobytes":   (True,  False, None),              # tokens equal, bytes not; no sugar fixture
    "hex":       (False, False, "input line 24: '0x1F' vs traced line 15: '31'"),
    "syntax":    (False, False, "(1) does not compile"),
    "renamed":   (False, True,  "'tiny_param_0' vs traced line 6: 'out'"),
    "wrongkey":  (False, False, "no kernel 'tiny'"),
    "nofixture": (False, False, "codegen exited with status 3"),
    "badrename": (False, False, "codegen exited with status 3"),
    "noparams":  (True,  False, None),              # UNSUPPORTED, claim verified
    "falseunsup": (False, False, "UNSUPPORTED says"),  # claim not true
    "dangling":  (False, False, "codegen exited with status 3"),  # sugar only
    "exact":     (True,  True,  None),              # sugar: no KERNELS, no _MODULE
}
SUGAR_REASON = {"badrename": "inconsistent renaming",
                "dangling": "inconsistent renaming: 'tiny_param_0' was mapped to 'param0'"}


def run(argv):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = harness.main(argv)
    return rc, buf.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    errors = []
    for mode, col in (("plain", 0), ("sugar", 1)):
        for name, exp in EXPECT.items():
            path = os.path.join(SELF, name + ".ptx")
            opts = {"codegen": FAKE, "python": args.python, "mode": mode,
                    "timeout": 60, "keep": None, "tmp": None}
            _, ok, reasons, ident, _notes, _jit = harness.check_file((path, opts))
            text = "\n".join(reasons)
            if ok != exp[col]:
                errors.append("%s/%s: expected %s, got %s: %s" % (
                    mode, name, "pass" if exp[col] else "fail", "pass" if ok else "fail", text))
            frag = exp[2] if mode == "plain" else SUGAR_REASON.get(name)
            if not ok and frag and frag not in text:
                errors.append("%s/%s: reason lacks %r: %s" % (mode, name, frag, text))
            if mode == "plain" and name == "tiny" and not ident:
                errors.append("plain/tiny: expected a byte-identical module")
            if mode == "plain" and name == "nobytes" and ident:
                errors.append("plain/nobytes: must not count as byte-identical")
    # whole-run behaviour: summary line, exit status, --jobs
    rc, out = run(["--python", args.python, "--jobs", "2", "-q", FAKE, SELF])
    last = out.rstrip("\n").split("\n")[-1]
    if last != "4 passed, 8 failed" or rc != 1:
        errors.append("plain run: rc=%s last line %r" % (rc, last))
    if not re.search(r"^byte-identical modules: 4 of 12 \(plain mode\)$", out, re.M):
        errors.append("plain run: wrong byte-identical count:\n" + out)
    if "pyptx cannot express: 1 entries in 1 files (listed above)" not in out:
        errors.append("plain run: wrong inexpressible count:\n" + out)
    rc, out = run(["--python", args.python, "--mode", "sugar", "-j", "2", FAKE,
                   os.path.join(SELF, "tiny.ptx"), os.path.join(SELF, "renamed.ptx"),
                   os.path.join(SELF, "exact.ptx")])
    last = out.rstrip("\n").split("\n")[-1]
    if last != "3 passed, 0 failed" or rc != 0:
        errors.append("sugar run: rc=%s last line %r" % (rc, last))
    for e in errors:
        print("SELFTEST ERROR: " + e)
    print("harness self-test: %s" % ("ok" if not errors else "%d errors" % len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
