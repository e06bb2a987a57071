#!/usr/bin/env python3
"""--sugar against plain codegen through the CLI, as a user runs it.

    tools/cli_ratio.py [--rounds N] [--cpu C] BUILD... -- FILE.ptx...

For each file, every build's pyptx-codegen runs plain and with --sugar,
N times (default 21), the builds interleaved and each going first in every
other round, so that a slow spell of a shared machine hits them alike;
--cpu C pins each run to CPU C (taskset).  Prints, per file and build, the
best wall and CPU (user + system) times of each mode and their ratio, the
figure issue 37 asks to keep at 2x or less on the largest library module.

    tools/cli_ratio.py --passes [--rounds N] [--cpu C] BUILD -- FILE.ptx...

instead prints what each pass adds through the program: the best CPU time
of `--sugar=comments,PASS` less that of `--sugar=comments` (the row that
pieces do at build time), the runs interleaved likewise; a pass that
saves printing can come out below zero."""
import argparse
import os
import resource
import subprocess
import time


def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def best_of(cmds, rounds):
    """The best (wall, CPU) time of each command over `rounds` rounds, the
    commands interleaved and each going first in every other round."""
    best = [(1e9, 1e9)] * len(cmds)
    for i in range(rounds):
        for j in (range(len(cmds)) if i % 2 == 0 else reversed(range(len(cmds)))):
            w, c = run(cmds[j])
            best[j] = (min(best[j][0], w), min(best[j][1], c))
    return best


def passes_report(a, pin):
    exe = os.path.join(a.builds[0], "pyptx-codegen")
    names = [l.split()[0] for l in subprocess.run([exe, "--list-passes"], capture_output=True,
                                                   text=True, check=True).stdout.splitlines()]
    modes = ["comments"] + ["comments," + n for n in names if n != "comments"]
    for f in a.files:
        cpu = [c for _, c in best_of([pin + [exe, "--sugar=" + m, f] for m in modes], a.rounds)]
        print("%s %.1f MB: --sugar=comments %.1f ms; each pass adds (ms):" %
              (os.path.basename(f), os.path.getsize(f) / 1e6, cpu[0] * 1e3))
        for mode, c in zip(modes[1:], cpu[1:]):
            print("  %-10s %6.1f" % (mode.split(",")[1], (c - cpu[0]) * 1e3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--cpu", type=int)
    ap.add_argument("--passes", action="store_true", help="each pass's own cost (one BUILD)")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    # Two lists of positionals need the "--" between them; argparse's own
    # handling of "--" before a second nargs="+" differs across versions.
    if "--" not in a.rest:
        ap.error("give BUILD... -- FILE...")
    cut = a.rest.index("--")
    a.builds, a.files = a.rest[:cut], a.rest[cut + 1:]
    if not a.builds or not a.files:
        ap.error("give BUILD... -- FILE...")
    pin = ["taskset", "-c", str(a.cpu)] if a.cpu is not None else []
    if a.passes:
        passes_report(a, pin)
        return
    for f in a.files:
        cmds = [pin + [os.path.join(b, "pyptx-codegen"), f] + mode
                for b in a.builds for mode in ([], ["--sugar"])]
        best = best_of(cmds, a.rounds)
        for i, b in enumerate(a.builds):
            (pw, pc), (sw, sc) = best[2 * i], best[2 * i + 1]
            print("%s %.1f MB %s: wall plain %.3f s sugar %.3f s ratio %.2f | cpu plain %.3f s "
                  "sugar %.3f s ratio %.2f" % (os.path.basename(f), os.path.getsize(f) / 1e6, b,
                                               pw, sw, sw / pw, pc, sc, sc / pc))


if __name__ == "__main__":
    main()
