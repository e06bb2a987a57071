#!/usr/bin/env python3
"""valgrind memcheck over pyptx-codegen (plain and --sugar) and pyptx-diff.

    valgrind_tools.py --codegen BIN --diff BIN DIR...

Every compiler-output file under the given directories (hand-written syntax
tests, LLVM fragments and the -G/-lineinfo variants are left to the
roundtrip run, which covers the front end on all files) goes through `pyptx-codegen`, `pyptx-codegen
--sugar` and `pyptx-diff FILE FILE`, each under memcheck with leak checking.
Any memcheck error or definite/indirect leak (exit 99) fails; so does a
tool failing (generated code and diffs are checked elsewhere, here the exit
status must be 0).  Prints `N passed, N failed`.
"""
import argparse
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys

VG = ["-q", "--error-exitcode=99", "--leak-check=full",
      "--errors-for-leak-kinds=definite,indirect"]


def files(dirs):
    out = []
    for d in dirs:
        for root, _, names in os.walk(d):
            if "/hand" in root or "/llvm" in root:
                continue
            # -G / -lineinfo variants add debug sections, which the
            # roundtrip run already covers; they would triple the time
            out += [os.path.join(root, n) for n in names if n.endswith(".ptx")
                    and not n.endswith(("_G.ptx", "_lineinfo.ptx"))]
    return sorted(out)


def check(vg, args, path):
    runs = [[args.codegen, path, "-o", os.devnull],
            [args.codegen, "--sugar", path, "-o", os.devnull],
            [args.diff, path, path]]
    for cmd in runs:
        p = subprocess.run([vg] + VG + cmd, capture_output=True, timeout=900)
        if p.returncode != 0:
            return "%s: exit %d\n%s" % (" ".join(cmd), p.returncode,
                                        p.stderr.decode(errors="replace")[-3000:])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--codegen", required=True)
    ap.add_argument("--diff", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    vg = shutil.which("valgrind")
    if not vg:
        print("valgrind not found (tools/setup.sh installs it)")
        return 1
    todo = files(args.dirs)
    if not todo:
        print("no files")
        return 1
    failed = 0
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for path, why in zip(todo, pool.map(lambda f: check(vg, args, f), todo)):
            if why:
                failed += 1
                print("FAIL %s: %s" % (path, why))
    print("%d passed, %d failed" % (len(todo) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
