#!/usr/bin/env python3
"""diff_bench.py - make two large, mostly equal PTX files for pyptx-diff.

    diff_bench.py SEED.ptx OUT_A.ptx OUT_B.ptx [--mb 10] [--changes 5]

Takes the module header (everything before the first .entry) and the
.entry kernels of SEED, and writes copies of the kernels, each renamed
NAME_cK, until OUT_A holds about --mb megabytes.  OUT_B is the same file
with the first instruction modifier `.u32`, `.b32` or `.s32` of --changes
evenly spaced kernels changed to `.u64` (so their lines keep their place).
Prints the kernel names that were changed, one per line, so a test can
check that exactly those are reported.
"""
import argparse
import re
import sys

ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$]+)")
MOD = re.compile(r"^(\s+[a-z][\w.]*?)\.(u32|b32|s32)(\s)")


def split_kernels(text):
    """The header and a list of (name, lines) for each .entry kernel."""
    lines = text.splitlines(keepends=True)
    header, kernels, i = [], [], 0
    while i < len(lines):
        m = ENTRY.match(lines[i])
        if not m:
            if not kernels:
                header.append(lines[i])
            i += 1
            continue
        j, depth, opened = i, 0, False
        while j < len(lines):   # to the brace closing the body
            code = lines[j].split("//")[0]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth == 0:
                break
            j += 1
        kernels.append((m.group(1), lines[i:j + 1]))
        i = j + 1
    return "".join(header), kernels


def change_one(lines):
    """Changes the first matching instruction modifier; False if none."""
    for k, line in enumerate(lines):
        m = MOD.match(line)
        if m:
            lines[k] = line[:m.end(1)] + ".u64" + line[m.end(2):]
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed")
    ap.add_argument("out_a")
    ap.add_argument("out_b")
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--changes", type=int, default=5)
    args = ap.parse_args()
    with open(args.seed, encoding="utf-8") as f:
        header, kernels = split_kernels(f.read())
    if not kernels:
        sys.exit("diff_bench.py: no .entry kernel in " + args.seed)
    copies, size, k = [], len(header), 0
    while size < args.mb * 1e6:
        name, body = kernels[k % len(kernels)]
        new = re.sub(r"\b%s\b" % re.escape(name), "%s_c%d" % (name, k),
                     "".join(body))
        copies.append(("%s_c%d" % (name, k), new.splitlines(keepends=True)))
        size += len(new)
        k += 1
    step = max(1, len(copies) // max(1, args.changes))
    changed = []
    b_copies = [list(body) for _, body in copies]
    for c in range(0, len(copies), step):
        if len(changed) < args.changes and change_one(b_copies[c]):
            changed.append(copies[c][0])
    with open(args.out_a, "w", encoding="utf-8") as f:
        f.write(header + "".join("".join(b) for _, b in copies))
    with open(args.out_b, "w", encoding="utf-8") as f:
        f.write(header + "".join("".join(b) for b in b_copies))
    print("\n".join(changed))


if __name__ == "__main__":
    main()
