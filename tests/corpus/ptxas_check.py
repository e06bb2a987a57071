#!/usr/bin/env python3
"""The canonical printer's machine-code proof, with ptxas.

For every .ptx file under the given paths that ptxas assembles for the
file's own (first) .target, assemble the original and the canonical text
(pyptx-roundtrip --emit --canonical) and compare the cubins' code sections
with cubin_cmp (.text.*, .nv.info*, .nv.constant*, .nv.shared*, relocations;
debug sections exempt).  Files ptxas rejects are counted, not failed: they
are syntax tests.  Prints `N passed, N failed` (a passing file is one whose
cubins are identical) and exits 1 on any difference.

    ptxas_check.py --roundtrip B/pyptx-roundtrip --cubin-cmp B/cubin_cmp \
                   [--ptxas ptxas] [--jobs 2] PATH...
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile

TARGET = re.compile(rb"^\s*\.target\s+(sm_\w+)", re.M)


def ptx_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in names if n.endswith(".ptx")]
        else:
            out.append(p)
    return sorted(out)


def assemble(ptxas, arch, src, dst):
    r = subprocess.run([ptxas, "-arch=" + arch, src, "-o", dst],
                       capture_output=True, text=True, timeout=600)
    return r.returncode == 0, r.stderr.strip()


def check(args, path):
    data = open(path, "rb").read()
    m = TARGET.search(data)
    if not m:
        return "skip", "no .target"
    arch = m.group(1).decode()
    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "a.cubin")
        ok, err = assemble(args.ptxas, arch, path, a)
        if not ok:
            return "skip", "ptxas rejects the original: " + err.splitlines()[-1] if err else ""
        canon = subprocess.run([args.roundtrip, "--emit", "--canonical", path],
                               capture_output=True, timeout=600)
        if canon.returncode != 0:
            return "fail", "canonical printer failed: " + canon.stderr.decode()
        cpath = os.path.join(tmp, "canon.ptx")
        open(cpath, "wb").write(canon.stdout)
        b = os.path.join(tmp, "b.cubin")
        ok, err = assemble(args.ptxas, arch, cpath, b)
        if not ok:
            return "fail", "ptxas rejects the canonical text: " + err
        cmp = subprocess.run([args.cubin_cmp, a, b], capture_output=True, text=True)
        if cmp.returncode != 0:
            return "fail", "cubins differ: " + (cmp.stdout + cmp.stderr).strip()
        return "pass", arch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roundtrip", required=True)
    ap.add_argument("--cubin-cmp", required=True)
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = ptx_files(args.paths)
    if not files:
        print("no .ptx files found", file=sys.stderr)
        return 1
    counts = {"pass": 0, "fail": 0, "skip": 0}
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for path, (status, why) in zip(files, pool.map(lambda f: check(args, f), files)):
            counts[status] += 1
            if status == "fail":
                print(f"{path}: {why}")
    print(f"ptxas rejected {counts['skip']} original file(s) (syntax-only tests)")
    print(f"{counts['pass']} passed, {counts['fail']} failed")
    return 1 if counts["fail"] or not counts["pass"] else 0


if __name__ == "__main__":
    sys.exit(main())
