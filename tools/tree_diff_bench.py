#!/usr/bin/env python3
"""pyptx-diff's tree mode on the Triton test trees: how long it takes.

    tools/tree_diff_bench.py [--diff build/pyptx-diff] [--repeat 5] [--jobs 2]

Extracts tests/diff/trees/triton.tar.xz (102 kernels a side, the project's
Triton kernels under two num_warps/num_stages policies) and times, best of
--repeat runs:
  - the plain tree diff (unified report);
  - the same on the trees doubled (each side's files twice over, in two
    directories): the time should double;
  - --resources --jobs N (one run: ptxas dominates and does not vary much).
Prints one line per measure with the input's size, for the README.
"""
import argparse
import os
import shutil
import subprocess
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TREES = os.path.join(HERE, "..", "tests", "diff", "trees", "triton.tar.xz")


def best(cmd, repeat):
    t = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append(time.perf_counter() - t0)
        if r.returncode not in (0, 1, 3):
            raise SystemExit("%s: exit %d" % (" ".join(cmd), r.returncode))
    return min(t)


def size(tree):
    n = 0
    for d, _, files in os.walk(tree):
        n += sum(os.path.getsize(os.path.join(d, f)) for f in files if f.endswith(".ptx"))
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--diff", default=os.path.join(HERE, "..", "build", "pyptx-diff"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(TREES) as t:
            t.extractall(tmp)
        ta, tb = (os.path.join(tmp, "triton", s) for s in "ab")
        for s, t in (("a", ta), ("b", tb)):   # the doubled trees
            for k in ("1", "2"):
                shutil.copytree(t, os.path.join(tmp, "double", s, k))
        da, db = (os.path.join(tmp, "double", s) for s in "ab")
        mb = (size(ta) + size(tb)) / 1e6
        plain = best([a.diff, ta, tb], a.repeat)
        double = best([a.diff, da, db], a.repeat)
        res = best([a.diff, "--resources", "--jobs", str(a.jobs), ta, tb], 1)
        print("tree diff, 2 x 102 kernels (%.1f MB):           %.3f s" % (mb, plain))
        print("tree diff, 2 x 204 kernels (%.1f MB):           %.3f s (%.2fx)" %
              (2 * mb, double, double / plain))
        print("tree diff --resources --jobs %d, 2 x 102 kernels: %.1f s" % (a.jobs, res))


if __name__ == "__main__":
    main()
