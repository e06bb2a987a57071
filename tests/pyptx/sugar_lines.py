#!/usr/bin/env python3
"""--sugar never makes a file longer: for every .ptx under PATH...,
`CODEGEN --sugar --stats FILE` reports `lines: A plain -> B with these
passes`, and B must not exceed A.

    sugar_lines.py CODEGEN PATH...

The last line is `N passed, N failed` (one case per file)."""
import os
import re
import subprocess
import sys


def main():
    codegen, paths = sys.argv[1], sys.argv[2:]
    files = []
    for p in paths:
        for root, dirs, names in os.walk(p):
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".ptx")]
    passed = failed = plain_total = sugar_total = 0
    for f in files:
        r = subprocess.run([codegen, "--sugar", "--stats", f], capture_output=True, text=True)
        m = re.search(r"lines: (\d+) plain -> (\d+)", r.stderr)
        if r.returncode or not m:
            failed += 1
            print("FAIL %s: no line counts (status %d)" % (f, r.returncode))
            continue
        a, b = int(m.group(1)), int(m.group(2))
        plain_total += a
        sugar_total += b
        if b > a:
            failed += 1
            print("FAIL %s: %d lines plain, %d with --sugar" % (f, a, b))
        else:
            passed += 1
    print("lines: %d plain, %d with --sugar" % (plain_total, sugar_total))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
