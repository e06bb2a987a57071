#!/usr/bin/env python3
"""Compare two pyptx-roundtrip builds' diagnostics on corrupted corpus files.

    python3 tools/diag_compare.py OLD/pyptx-roundtrip NEW/pyptx-roundtrip [--files N] PATH...

For a grammar or parser-table change that must not change what users are
told: takes N .ptx files under PATH (seeded shuffle, files up to 200 KB),
cuts each at 40 random offsets three ways (truncated there, one byte
deleted, " ; " inserted), runs both programs on every variant and prints
how many variants were errors and how many outputs differ (the first five
shown).  Exit 0 only when none differ.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile


def ptx_files(paths):
    out = []
    for p in paths:
        for root, _, names in os.walk(p):
            out += [os.path.join(root, n) for n in names if n.endswith(".ptx")]
    return sorted(out)


def run(exe, path):
    r = subprocess.run([exe, path], capture_output=True)
    return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    rng = random.Random(1)
    files = ptx_files(a.paths)
    rng.shuffle(files)
    total = errors = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "x.ptx")
        for f in files[:a.files]:
            data = open(f, "rb").read()
            if len(data) < 2 or len(data) > 200000:
                continue
            for c in sorted(rng.sample(range(1, len(data)), min(40, len(data) - 1))):
                for d in (data[:c], data[:c] + data[c + 1:], data[:c] + b" ; " + data[c:]):
                    open(probe, "wb").write(d)
                    old, new = run(a.old, probe), run(a.new, probe)
                    total += 1
                    errors += new[0] != 0
                    if old != new:
                        differ += 1
                        if differ <= 5:
                            print(f"{f} at {c}:\n  old: {old[1][:300]!r}\n  new: {new[1][:300]!r}")
    print(f"{total} variants, {errors} errors, {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
