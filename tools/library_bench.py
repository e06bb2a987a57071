#!/usr/bin/env python3
"""Library-scale figures: the --jobs scaling curve and peak memory per file.

    python3 tools/library_bench.py --build build[,OTHER...] [--jobs 1,2,4,8,16]
                                   [--rounds 3] [--top K] [--one FILE]
                                   [--no-memory] DIR...

DIR: a corpus of large modules, such as tools/extract-library-ptx.sh makes
on the device machine.  Two tables, three with --one:

1. Scaling.  `pyptx-roundtrip --jobs N DIR...` (parse, exact emit and the
   byte comparison of every file) for each N: the median wall time of
   --rounds runs (interleaved: round r runs every N in turn), MB/s, the
   speedup over the first N, and the fastest run with its speedup.  With
   several builds (--build A,B), each round runs every build in turn,
   starting with the next one each round: the host's drift between
   minutes falls on them alike, where two runs of this script would not.
   With --one FILE, the same for that one module, whose work the N threads
   share: the round trip, exact, --emit (printed to /dev/null rather than
   compared) and --canonical (`pyptx-roundtrip --jobs N FILE`: parse and
   printing), codegen (`pyptx-codegen --jobs N FILE`:
   parse, the kernels' build and printing; with --sugar, parse and build),
   and the diff of the module with itself (`pyptx-diff --jobs N FILE FILE`:
   two parses, every line's key, the alignment).
2. Memory.  Each program alone on each of the --top K largest files (all:
   0) of at least --min-mb MB: the peak RSS of the process (GNU time's %M)
   and its ratio to the file's size, for the exact round trip (`pyptx-roundtrip --emit`), the
   canonical one (`--emit --canonical`) and codegen (`pyptx-codegen`,
   plain).  The median and worst ratio per program, and the largest
   file's.

Single-threaded MB/s and the ratio to pyptx come from tools/bench.py, run
on the same DIR.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ptx_files  # noqa: E402  (one notion of "the .ptx files under")

PROGRAMS = (   # (label, program, options before the file)
    ("exact", "pyptx-roundtrip", ["--emit"]),
    ("canonical", "pyptx-roundtrip", ["--emit", "--canonical"]),
    ("codegen", "pyptx-codegen", []),
)


def wall(argv):
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("library_bench: %s failed (exit %d):\n%s"
                 % (" ".join(argv[:4]), p.returncode, p.stderr.decode(errors="replace")[-2000:]))
    return dt


GNU_TIME = "/usr/bin/time"


def peak_rss(argv):
    """The peak resident set of one run of argv, in bytes, as GNU time
    reports it (tools/setup.sh installs it).  wait4's ru_maxrss of a child
    of this process would count the Python interpreter the child was
    forked from (some 15 MB) until its exec: the fallback, said as such."""
    if os.access(GNU_TIME, os.X_OK):
        with tempfile.NamedTemporaryFile("r") as rep, open(os.devnull, "wb") as null:
            p = subprocess.run([GNU_TIME, "-f", "%M", "-o", rep.name] + argv,
                               stdout=null, stderr=subprocess.DEVNULL)
            if p.returncode != 0:
                sys.exit("library_bench: %s failed" % " ".join(argv))
            return int(rep.read().split()[-1]) * 1024   # kilobytes
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("library_bench: %s failed" % " ".join(argv))
    return ru.ru_maxrss * 1024   # Linux: kilobytes


def scaling(builds, dirs, jobs, rounds, size, opts=(), prog="pyptx-roundtrip"):
    """The rounds run every build and job count in turn (each round in the
    other order than the last, from the next build), so that a slow spell
    of a shared host falls on all of them alike."""
    times = {(b, n): [] for b in builds for n in jobs}
    for r in range(rounds):
        for b in builds[r % len(builds):] + builds[:r % len(builds)]:
            exe = os.path.join(b, prog)
            for n in (jobs if r % 2 == 0 else jobs[::-1]):
                times[b, n].append(wall([exe, "--jobs", str(n)] + list(opts) + dirs))
    for b in builds:
        if len(builds) > 1:
            print("build %s" % b)
        print("%-6s %10s %9s %8s %10s %8s" % ("jobs", "median_s", "MB/s", "speedup",
                                               "fastest_s", "speedup"))
        base, fast = statistics.median(times[b, jobs[0]]), min(times[b, jobs[0]])
        for n in jobs:
            med, low = statistics.median(times[b, n]), min(times[b, n])
            print("%-6d %10.4f %9.1f %7.2fx %10.4f %7.2fx"
                  % (n, med, size / med / 1e6, base / med, low, fast / low))


def memory(build, files):
    floor = peak_rss([os.path.join(build, "pyptx-roundtrip"), "--version"])
    print("\nPeak RSS over input size, %d files of %.1f MB to %.1f MB (a process "
          "alone takes %.1f MB%s)" % (len(files), os.path.getsize(files[-1]) / 1e6,
                                       os.path.getsize(files[0]) / 1e6, floor / 1e6,
                                       "" if os.access(GNU_TIME, os.X_OK) else
                                       "; no /usr/bin/time: each figure counts this "
                                       "Python's memory too"))
    print("%-10s %12s %12s %12s %10s   %s" % ("program", "median_ratio", "worst_ratio",
                                             "largest_MB", "its_ratio", "worst file"))
    largest = files[0]
    for label, prog, opts in PROGRAMS:
        exe = os.path.join(build, prog)
        ratios = {f: peak_rss([exe] + opts + [f]) / max(1, os.path.getsize(f)) for f in files}
        worst_f = max(files, key=ratios.get)
        print("%-10s %11.1fx %11.1fx %12.1f %9.1fx   %s"
              % (label, statistics.median(ratios.values()), ratios[worst_f],
                 os.path.getsize(largest) / 1e6, ratios[largest], os.path.basename(worst_f)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build",
                    help="a build directory, or several separated by commas (scaling only: "
                         "the memory table is the first's)")
    ap.add_argument("--jobs", default="1,2,4,8,16")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--top", type=int, default=0, help="memory: the K largest files (0: all)")
    ap.add_argument("--min-mb", type=float, default=1.0,
                    help="memory: only files of at least this many MB (default 1: below, "
                         "the memory every process takes weighs more than the file)")
    ap.add_argument("--one", help="also the scaling of this one module")
    ap.add_argument("--no-memory", action="store_true", help="leave out the memory table")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    files = sorted(ptx_files(a.dirs), key=os.path.getsize, reverse=True)
    if not files:
        sys.exit("library_bench: no .ptx files under %s" % " ".join(a.dirs))
    size = sum(os.path.getsize(f) for f in files)
    print("%d files, %.1f MB, largest %.1f MB (%s)\n"
          % (len(files), size / 1e6, os.path.getsize(files[0]) / 1e6, os.path.basename(files[0])))
    jobs = [int(j) for j in a.jobs.split(",")]
    builds = a.build.split(",")
    scaling(builds, a.dirs, jobs, a.rounds, size)
    if a.one:
        for prog, opts, copies in (("pyptx-roundtrip", (), 1), ("pyptx-roundtrip", ("--emit",), 1),
                                   ("pyptx-roundtrip", ("--canonical",), 1),
                                   ("pyptx-codegen", (), 1), ("pyptx-codegen", ("--sugar",), 1),
                                   ("pyptx-diff", (), 2)):
            print("\none module, %s: %s, %.1f MB" % (" ".join((prog,) + opts),
                                                  os.path.basename(a.one), os.path.getsize(a.one) / 1e6))
            scaling(builds, [a.one] * copies, jobs, a.rounds, os.path.getsize(a.one), opts, prog)
    if not a.no_memory:
        big = [f for f in (files[:a.top] if a.top else files)
               if os.path.getsize(f) >= a.min_mb * 1e6]
        if big:
            memory(builds[0], big)


if __name__ == "__main__":
    main()
