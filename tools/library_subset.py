#!/usr/bin/env python3
"""A library corpus of a given size, from what extract-library-ptx.sh wrote.

    python3 tools/library_subset.py DIR OUT [--mb 95] [--largest-mb 12]

Issue 18's corpus was 95 MB of modules from cuBLASLt, cuDNN, cuRAND and
NCCL, none over 12 MB; the libraries on the device machine embed ten
times that.  This links into OUT (made empty first) the modules of DIR of
at most --largest-mb MB, taken from DIR's library directories in turn (the
first module of each, then the second of each, ..., each library's in path
order), each that still fits in --mb MB in all.  Prints the count, the
total and the largest.
"""
import argparse
import os
import sys


def modules(lib):
    out = []
    for root, dirs, files in os.walk(lib):
        dirs.sort()
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".ptx")]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=95)
    ap.add_argument("--largest-mb", type=float, default=12)
    a = ap.parse_args()
    most, largest = a.mb * 1e6, a.largest_mb * 1e6
    libs = [modules(os.path.join(a.dir, d)) for d in sorted(os.listdir(a.dir))
            if os.path.isdir(os.path.join(a.dir, d))]
    libs = [[p for p in lib if os.path.getsize(p) <= largest] for lib in libs]
    order = [lib[i] for i in range(max(map(len, libs), default=0))
             for lib in libs if i < len(lib)]
    os.makedirs(a.out, exist_ok=True)
    for f in os.listdir(a.out):
        os.unlink(os.path.join(a.out, f))
    total, taken = 0, []
    for p in order:
        n = os.path.getsize(p)
        if total + n > most:
            continue
        total += n
        taken.append(p)
        # one directory, names unique: the library's directory in front
        name = os.path.basename(os.path.dirname(p)) + "__" + os.path.basename(p)
        os.symlink(os.path.abspath(p), os.path.join(a.out, name))
    big = max(map(os.path.getsize, taken), default=0)
    print("%d modules, %.1f MB, the largest %.1f MB" % (len(taken), total / 1e6, big / 1e6))
    return 0 if taken else 1


if __name__ == "__main__":
    sys.exit(main())
