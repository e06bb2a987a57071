#!/usr/bin/env python3
"""A/B two or more builds of bench_frontend on the same host, interleaved.

    python3 tools/ab.py [--rounds N] [--seconds S] [--modes exact,codegen]
                        [--pieces] [--each] BUILD... -- PATH...

Runs every build's bench_frontend (BUILD/bench_frontend) on every PATH in
turn, N rounds, and prints the fastest and the median MB/s of each.  On a
host shared with other work the speed drifts by tens of percent between
minutes: interleaving puts every build through the same drift, where two
separate bench.py runs would not.  Each round starts with the next build
in turn: on the device host the second of two back-to-back runs was
slower by up to a quarter, whichever build it was.  --pieces: a large
module a piece at a time, as the programs take it (bench_frontend
--pieces); for library PTX, where the whole tree of a module would not
stay in the cache.  --each: every round's figure as well, to show the
spread behind a median.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import c_bench  # noqa: E402  (one way to run bench_frontend)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--modes", default="exact,codegen")
    ap.add_argument("--pieces", action="store_true")
    ap.add_argument("--each", action="store_true",
                    help="print every round's MB/s too, in the order run")
    ap.add_argument("builds", nargs="+")
    a = ap.parse_args(argv[:cut])
    paths = argv[cut + 1:]
    res = {}
    for r in range(a.rounds):
        order = a.builds[r % len(a.builds):] + a.builds[:r % len(a.builds)]
        for mode in a.modes.split(","):
            for path in paths:
                for build in order:
                    res.setdefault((mode, path, build), []).append(
                        c_bench(build, mode, a.seconds, [path],
                                ["--pieces"] if a.pieces else []))
    for (mode, path, build), xs in res.items():
        print(f"{mode:9} {path:24} {build:24} fastest {max(xs):7.1f}"
              f"  median {statistics.median(xs):7.1f} MB/s")
        if a.each:
            print("    rounds: " + " ".join(f"{x:.1f}" for x in xs))


if __name__ == "__main__":
    main()
