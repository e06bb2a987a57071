#!/usr/bin/env python3
"""Golden tests of the sugar passes: PTX in, Python out.

    run.py [--python PY] [--update] CODEGEN [NAME.ptx ...]

Each NAME.ptx here is what pyptx 0.1.1 traces from NAME.src.py (a kernel
written in the DSL; `run.py --regen` traces it again), or, without a
NAME.src.py, PTX in a compiler's shapes written by hand.  For each:

  1. `CODEGEN --sugar NAME.ptx`: its kernel functions (from the decorator
     to the function's end) must be NAME.expect byte for byte, so that a
     reader sees what the passes make of the shape, and a change to it
     shows in review (--update rewrites NAME.expect);
  2. the generated file, run under PY, must print NAME.ptx byte for byte
     where pyptx traced it: the sugar changed no traced PTX; hand-written
     PTX must trace back by the harness's rule (tests/pyptx/harness.py,
     --mode sugar: tokens equal up to one consistent renaming).

The last line is `N passed, N failed`; the exit status is 0 only when
nothing failed."""
import argparse
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "..", "pyptx", "harness.py")

TRACE = r'''
import importlib.util, sys
spec = importlib.util.spec_from_file_location("k", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
sys.stdout.write(m.KERNEL.ptx(**m.ARGS))
'''


def kernels(py):
    """The generated file's kernel functions, decorator included."""
    out, keep = [], False
    for line in py.splitlines(keepends=True):
        if line.startswith("@"):
            keep = True
        elif keep and line.strip() and not line[0].isspace() and not line.startswith("def "):
            keep = False
        if keep:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"


def check(args, ptx_path):
    base = ptx_path[:-4]
    name = os.path.basename(base)
    if args.regen and os.path.exists(base + ".src.py"):
        r = subprocess.run([args.python, "-c", TRACE, base + ".src.py"], capture_output=True, text=True)
        if r.returncode:
            return "%s: the source does not trace: %s" % (name, r.stderr.strip()[-300:])
        with open(ptx_path, "w") as f:
            f.write(r.stdout)
    r = subprocess.run([args.codegen, "--sugar", ptx_path], capture_output=True, text=True)
    if r.returncode:
        return "%s: codegen failed: %s" % (name, r.stderr.strip())
    got = kernels(r.stdout)
    if args.update:
        with open(base + ".expect", "w") as f:
            f.write(got)
    with open(base + ".expect") as f:
        want = f.read()
    if got != want:
        return "%s: the Python differs from %s.expect:\n%s" % (name, name, got)
    if not os.path.exists(base + ".src.py"):
        h = subprocess.run([args.python, HARNESS, "--python", args.python, "--mode", "sugar", "-q",
                            args.codegen, ptx_path], capture_output=True, text=True)
        return None if h.returncode == 0 else "%s: does not trace back: %s" % (
            name, h.stdout.strip()[-500:])
    t = subprocess.run([args.python, "-"], input=r.stdout, capture_output=True, text=True)
    with open(ptx_path) as f:
        ptx = f.read()
    if t.returncode or t.stdout != ptx:
        return "%s: does not trace back to its PTX: %s" % (name, t.stderr.strip()[-500:] or "other PTX")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--update", action="store_true", help="rewrite the .expect files")
    ap.add_argument("--regen", action="store_true", help="trace each .src.py into its .ptx first")
    ap.add_argument("codegen")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    # the harness runs them from a directory of its own
    args.python, args.codegen = (os.path.abspath(p) if os.sep in p else p
                                 for p in (args.python, args.codegen))
    files = args.files or sorted(glob.glob(os.path.join(HERE, "*.ptx")))
    failed = 0
    for f in files:
        err = check(args, os.path.abspath(f))
        if err:
            failed += 1
            print("FAIL " + err)
    print("%d passed, %d failed" % (len(files) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
