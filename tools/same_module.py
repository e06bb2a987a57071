#!/usr/bin/env python3
"""Do two builds' generated files print the same module?  For a change to
the generated file's shape (its head, its tail) that must not change what
`python k.py` prints.

    tools/same_module.py [--python PY] [--jobs N] [--sugar-only]
                         OLD_BUILD NEW_BUILD PATH...

For every .ptx file under PATH, plain and --sugar: each build's
pyptx-codegen writes the Python, PY runs it as a script, and the two
stdouts (and exit statuses) must be the same bytes.  Prints each file that
differs and a count; exit 0 only when none differs.  (tools/same_output.sh
asks more: the same Python.)
"""
import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile


def printed(codegen, mode, path, py, work):
    p = subprocess.run([codegen] + mode + [path], capture_output=True)
    if p.returncode:
        return ("codegen", p.returncode, p.stderr[-300:])
    gen = os.path.join(work, "k.py")
    with open(gen, "wb") as f:
        f.write(p.stdout)
    r = subprocess.run([py, gen], capture_output=True, cwd=work)
    return (r.returncode, r.stdout)


def one(job):
    path, a = job
    out = []
    with tempfile.TemporaryDirectory(prefix="same-module-") as work:
        for mode in ([["--sugar"]] if a.sugar_only else [[], ["--sugar"]]):
            old = printed(os.path.join(a.old, "pyptx-codegen"), mode, path, a.python, work)
            new = printed(os.path.join(a.new, "pyptx-codegen"), mode, path, a.python, work)
            if old != new:
                out.append("differs: %s %s" % (mode[0] if mode else "plain", path))
    return 2 - a.sugar_only, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--sugar-only", action="store_true")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        for root, dirs, names in os.walk(p):
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".ptx")]
    n = bad = 0
    with multiprocessing.Pool(a.jobs) as pool:
        for k, lines in pool.imap(one, [(f, a) for f in files]):
            n += k
            bad += len(lines)
            for line in lines:
                print(line, flush=True)
    print("%d modules, %d differ" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
