#!/usr/bin/env python3
"""Lines of `pyptx-codegen --sugar` with and without --no-debug, on the
corpus files that carry debug line tables (docs/performance.md).

    python3 tools/debug_lines.py [--codegen BUILD/pyptx-codegen] [--files]

Groups: nvcc -lineinfo (tests/corpus/nvcc/*_lineinfo.ptx), nvcc -G
(*_G.ptx), Triton (tests/corpus/triton and the shared corpus's
pyptx/external/triton).  Prints a Markdown table: files, lines of --sugar,
lines of --sugar --no-debug, and their ratio, per group (and, with
--files, per file); the issue asks for at most 0.6 on Triton output.  Exit
1 when a file fails to generate.
"""
import argparse
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "corpus")
GROUPS = (
    ("nvcc -lineinfo", [os.path.join(ROOT, "tests/corpus/nvcc/*_lineinfo.ptx")]),
    ("nvcc -G", [os.path.join(ROOT, "tests/corpus/nvcc/*_G.ptx")]),
    ("Triton", [os.path.join(ROOT, "tests/corpus/triton/*.ptx"),
                os.path.join(SHARED, "pyptx/external/triton/*.ptx")]),
)


def lines(codegen, path, *opts):
    p = subprocess.run([codegen, "--sugar", *opts, path], capture_output=True)
    if p.returncode != 0:
        sys.exit("%s: pyptx-codegen exited %d: %s" % (path, p.returncode,
                                                    p.stderr.decode(errors="replace")))
    return p.stdout.count(b"\n")


def row(name, n, with_debug, without):
    return "| %s | %d | %d | %d | %.2f |" % (name, n, with_debug, without,
                                            without / with_debug if with_debug else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--codegen", default=os.path.join(ROOT, "build", "pyptx-codegen"))
    ap.add_argument("--files", action="store_true", help="a row per file too")
    args = ap.parse_args()
    print("| group | files | lines, --sugar | lines, --sugar --no-debug | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, patterns in GROUPS:
        files = sorted(f for p in patterns for f in glob.glob(p))
        total = [0, 0]
        for f in files:
            a, b = lines(args.codegen, f), lines(args.codegen, f, "--no-debug")
            total[0] += a
            total[1] += b
            if args.files:
                print(row(os.path.basename(f), 1, a, b))
        print(row("**%s**" % name, len(files), *total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
