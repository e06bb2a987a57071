#!/usr/bin/env python3
"""Regenerate docs/performance.md: the figures of this build on this machine.

    python3 tools/perf_report.py [--build build] [--out docs/performance.md]
                                 [--lib DIR] [--quick] [--dslgen-log LOG [--dslgen-note TEXT]]

Runs the project's own benchmarks and checks (tools/bench.py,
tools/library_bench.py, tools/debug_lines.py, tests/pyptx/harness.py,
tests/pyptx/sugar_lines.py, tests/idiomatic/run.py, tools/dslgen/run.py,
...) and writes one Markdown file: the date, the machine, the build, then
each figure under the command that produced it.  The file is rewritten,
not appended to: it says what this build does on this machine today.

Needs a build made by tools/setup.sh (BUILD/venv with pyptx 0.1.1), the
shared corpus beside the checkout (../shared/corpus), and for the ptxas
check the CUDA toolkit.  About 8 minutes on two cores shared with other
work (the timings are of the machine as it is then); with
--quick (small inputs, smaller counts and one round: for checking this
script, not for figures) about a minute.

--lib DIR adds the library-scale figures (speed, --jobs scaling, memory,
--sugar against plain on the largest modules) over a directory of NVIDIA
library PTX, such as tools/extract-library-ptx.sh writes where the CUDA
libraries are installed; without it the report says how to get them.
The 8 minutes above are without it: tools/bench.py times pyptx's own
Python parser over every module too, which takes more than a quarter of
an hour for 100 MB.

--dslgen-log LOG adds a long run of the program generator (the hour that
issue 37 asks for) from its saved output, under the command that made it,
which the log's first line gives; --dslgen-note says what ran beside it.
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_ROOT = "../shared/corpus"
SHARED = SHARED_ROOT
OWN_ROOT = "tests/corpus"
OWN = OWN_ROOT


class Report:
    def __init__(self, quiet):
        self.parts = []
        self.quiet = quiet
        self.t0 = time.monotonic()

    def add(self, text=""):
        self.parts.append(text)

    def run(self, cmd, env=None, ok=(0,)):
        """Run cmd (a shell line, shown as it is, run from the repository
        root); its stdout, with the time it took noted on stderr."""
        if not self.quiet:
            print("perf_report: $ %s" % cmd, file=sys.stderr, flush=True)
        t = time.monotonic()
        p = subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, **(env or {})), errors="replace")
        dt = time.monotonic() - t
        if not self.quiet:
            print("perf_report:   %.1f s, exit %d" % (dt, p.returncode), file=sys.stderr, flush=True)
        if p.returncode not in ok:
            self.add("`%s` exited %d:\n\n```\n%s\n```\n" % (cmd, p.returncode,
                                                           (p.stdout + p.stderr)[-3000:].strip()))
        return p.stdout, dt

    def figure(self, cmd, out, dt=None, note=None):
        """The command, then its output (or the lines of it that matter)."""
        self.add("```sh\n%s\n```\n" % cmd)
        if note:
            self.add(note + "\n")
        self.add("```\n%s\n```\n" % out.rstrip("\n"))
        if dt is not None:
            self.add("(%.0f s)\n" % dt)


def lines_matching(text, *patterns):
    return "\n".join(l for l in text.splitlines() if any(re.search(p, l) for p in patterns))


def dslgen_summary(out):
    """The summary lines of tools/dslgen/run.py's output."""
    return lines_matching(out, r"^programs:", r"^  (faithful|unfaithful|crashed|invalid)\b",
                          r"byte-identical", r"^line ratio", r"^kinds of failure", r"^ +\d+  ",
                          r"passed, \d+ failed")


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return ""


def cache_value(build, key):
    try:
        with open(os.path.join(ROOT, build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ""


def header(r, a):
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            cpu = m.group(1) if m else ""
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s*(\d+)", f.read()).group(1))
            mem = "%.1f GiB" % (kb / 2**20)
    except (OSError, AttributeError):
        pass
    btype = cache_value(a.build, "CMAKE_BUILD_TYPE")
    flags = cache_value(a.build, "CMAKE_C_FLAGS_" + btype.upper()) if btype else ""
    pgo = cache_value(a.build, "PTX_PGO") or "OFF"
    cc = cache_value(a.build, "CMAKE_C_COMPILER") or "cc"
    ccv = sh("%s --version | head -1" % shlex.quote(cc))
    commit = sh("git log -1 --format='%h (%ad, %s)' --date=short")
    dirty = sh("git status --porcelain --untracked-files=no -- . ':!docs/performance.md'")
    pyptx = sh("%s/venv/bin/python -c 'import importlib.metadata as m; print(m.version(\"pyptx\"))'"
               % shlex.quote(a.build))
    load = os.getloadavg()
    r.add("# Performance\n")
    r.add("Generated by `python3 tools/perf_report.py%s`; do not edit by hand: run it "
          "again.  Every figure below is what this build did on this machine when the "
          "report was made, under the command that produced it (run from the repository "
          "root).  Timings on a shared machine vary from run to run; the counts do not.\n"
          % ("" if not a.lib else " --lib DIR"))
    r.add("| | |\n|---|---|")
    r.add("| date | %s |" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    r.add("| machine | %s, `nproc` %d, %s memory, %s %s |" % (cpu or "unknown CPU", os.cpu_count() or 0,
                                                          mem or "?", platform.system(), platform.release()))
    r.add("| load average at the start | %.2f %.2f %.2f |" % load)
    r.add("| commit | `%s`%s |" % (commit, " with uncommitted changes" if dirty else ""))
    r.add("| compiler | %s |" % ccv)
    r.add("| build | `%s`: CMAKE_BUILD_TYPE=%s (`%s`), profile-guided: %s%s |" % (
        a.build, btype, flags, pgo,
        " (trained on tests/corpus by tools/setup.sh)" if pgo == "USE" else ""))
    r.add("| pyptx | %s (in `%s/venv`), %s |" % (pyptx or "not installed", a.build,
                                                sh("%s/venv/bin/python --version" % shlex.quote(a.build))))
    r.add("")


def corpus_counts(r, a, B, PY):
    r.add("## Correctness over the corpora\n")
    r.add("The shared corpus (`%s`, PTX from public projects) and the project's own "
          "(`%s`: nvcc output for sm_80/sm_90a/sm_100a, plain, `-lineinfo` and `-G`; "
          "Triton; hand-written syntax tests).  Each line `N passed, N failed`.\n" % (SHARED, OWN))
    r.add("**Round trip**, byte-exact and canonical:\n")
    for c in (SHARED, OWN):
        cmd = "%s/pyptx-roundtrip --canonical %s" % (B, c)
        out, dt = r.run(cmd, ok=(0, 1))
        r.figure(cmd, out.strip().splitlines()[-1] if out.strip() else "(no output)")
    if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) or shutil.which("ptxas"):
        r.add("**The canonical text assembles to the same code** (ptxas, code sections "
              "compared by `cubin_cmp`; files ptxas itself rejects are counted apart):\n")
        ptxas = "/usr/local/cuda/bin/ptxas" if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else "ptxas"
        for c in (SHARED, OWN):
            cmd = ("python3 tests/corpus/ptxas_check.py --roundtrip %s/pyptx-roundtrip "
                   "--cubin-cmp %s/cubin_cmp --ptxas %s --jobs %d %s" % (B, B, ptxas, a.jobs, c))
            out, dt = r.run(cmd, ok=(0, 1))
            r.figure(cmd, "\n".join(out.strip().splitlines()[-2:]), dt)
    r.add("**Codegen traced back by pyptx 0.1.1** (`tests/pyptx/harness.py`: each file "
          "translated, imported and run under pyptx; every kernel and the whole module "
          "must give the input's tokens, in sugar mode up to one consistent renaming of "
          "local names; byte-identical modules are counted, not required):\n")
    for mode in ("plain", "sugar"):
        for c in (SHARED, OWN):
            cmd = ("%s tests/pyptx/harness.py --python %s --mode %s --jobs %d -q %s/pyptx-codegen %s"
                   % (PY, "$PWD/" + PY, mode, a.jobs, B, c))
            out, dt = r.run(cmd, ok=(0, 1))
            r.figure(cmd, lines_matching(out, r"^PASS ", r"^FAIL ", r"not expressible", r"byte-identical",
                                         r"cannot express", r"passed, \d+ failed"), dt)


def speed(r, a, B, PY):
    r.add("## Speed, one thread\n")
    r.add("`tools/bench.py`: `%s/bench_frontend` (files loaded first, then parse + print "
          "repeated for the given seconds on one thread, after one untimed round) against "
          "pyptx 0.1.1's `pyptx.parser.parse` + `pyptx.emitter.emit` and "
          "`pyptx.codegen.ptx_to_python` on the same files, in the same run; MB/s of PTX "
          "input, the fastest of the rounds on both sides.\n" % B)
    cmd = ("%s tools/bench.py --build %s --seconds 1 --rounds %d %s %s"
           % (PY, B, a.rounds, SHARED, OWN))
    out, dt = r.run(cmd)
    r.figure(cmd, out, dt)
    r.add("`--sugar` against plain codegen, in process (`bench_frontend --mode codegen|sugar`: "
          "parse, build, passes, print), the fastest of %d rounds of a second:\n" % a.rounds)
    rows = ["%-40s %11s %13s %6s" % ("corpus", "plain MB/s", "--sugar MB/s", "ratio")]
    cmds = []
    for c in (SHARED, OWN):
        best = {}
        for mode in ("codegen", "sugar"):
            cmd = "%s/bench_frontend --mode %s --seconds 1 %s" % (B, mode, c)
            cmds.append(cmd)
            for _ in range(a.rounds):
                out, _ = r.run(cmd)
                m = re.search(r"mbps=([\d.]+)", out)
                if m:
                    best[mode] = max(best.get(mode, 0.0), float(m.group(1)))
        if "codegen" in best and "sugar" in best:
            rows.append("%-40s %11.1f %13.1f %6.2f" % (c, best["codegen"], best["sugar"],
                                                      best["sugar"] / best["codegen"]))
    r.figure("\n".join(cmds), "\n".join(rows))


def big_module(r, a, B, PY, work):
    seed = os.path.join(SHARED_ROOT, "pyptx/external/triton/matmul_tma_v35_sm90a.ptx")
    if not os.path.isfile(os.path.join(ROOT, seed)):
        return
    r.add("## One large module: diff, threads, memory\n")
    r.add("The corpora have no file of a megabyte; `tools/diff_bench.py` makes one: a "
          "Triton GEMM module's kernels copied (renamed) to 10 MB, and a second copy with "
          "five kernels changed by one modifier.\n" if a.mb == 10 else
          "(`--quick`: %d MB, not 10.)\n" % a.mb)
    a_ptx, b_ptx = os.path.join(work, "big", "big_a.ptx"), os.path.join(work, "big_b.ptx")
    os.makedirs(os.path.dirname(a_ptx))
    cmd = "python3 tools/diff_bench.py %s %s %s --mb %d --changes 5" % (seed, a_ptx, b_ptx, a.mb)
    r.run(cmd)
    r.add("```sh\n%s   # $WORK: a temporary directory\n```\n" % cmd.replace(work, "$WORK"))
    rows, cmds = ["wall time, the fastest of %d runs:" % a.rounds], []
    for args in ("--stat", "--stat --ignore-debug --ignore-regs", "--jobs 1 --stat",
                 "--jobs %d --stat" % (os.cpu_count() or 1)):
        cmd = "%s/pyptx-diff %s %s %s" % (B, args, a_ptx, b_ptx)
        ts = []
        for _ in range(a.rounds):
            _, dt = r.run(cmd, ok=(1,))
            ts.append(dt)
        cmds.append(cmd.replace(work, "$WORK"))
        rows.append("%-48s %.3f s" % ("pyptx-diff " + args, min(ts)))
    r.figure("\n".join(cmds), "\n".join(rows))
    r.add("`--jobs` scaling of the programs on that module, and peak memory (GNU time's "
          "`%%M`) over input size (`tools/library_bench.py`; with %d cores, 1 and %d jobs):\n"
          % (os.cpu_count() or 1, os.cpu_count() or 1))
    jobs = "1,%d" % (os.cpu_count() or 1) if (os.cpu_count() or 1) > 1 else "1"
    cmd = ("python3 tools/library_bench.py --build %s --jobs %s --rounds %d --min-mb %d --one %s %s"
           % (B, jobs, a.rounds, a.mb // 2, a_ptx, os.path.dirname(a_ptx)))
    out, dt = r.run(cmd)
    r.figure(cmd.replace(work, "$WORK"), out.replace(work, "$WORK"), dt)


def sugar_lines(r, a, B, PY):
    r.add("## How long the Python is\n")
    r.add("**`--sugar` against plain**, every file of both corpora (`--stats` counts the "
          "lines of both; a file fails if `--sugar` is longer):\n")
    cmd = "python3 tests/pyptx/sugar_lines.py %s/pyptx-codegen %s %s" % (B, OWN, SHARED)
    out, dt = r.run(cmd, ok=(0, 1))
    r.figure(cmd, "\n".join(out.strip().splitlines()[-2:]), dt)
    f = os.path.join(SHARED_ROOT, "pyptx/external/fastcu_k12_sm90a.ptx")
    if os.path.isfile(os.path.join(ROOT, f)):
        r.add("A Hopper GEMM with CUTLASS-style inline asm (the example in "
              "[sugar.md](sugar.md)):\n")
        cmd = "%s/pyptx-codegen --sugar --stats %s >/dev/null" % (B, f)
        p = subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True)
        r.figure(cmd, lines_matching(p.stderr, r"^lines:"))
    r.add("**`--sugar` against pyptx's own transpiler** (`python -m pyptx.codegen --sugar`), "
          "lines of each file and of its kernels, nothing traced; `-` where pyptx's file is "
          "not Python or has no kernel:\n")
    cmd = ("%s tools/sugar_report.py --lines --python %s --jobs %d %s/pyptx-codegen %s"
           % (PY, "$PWD/" + PY, a.jobs, B, SHARED))
    out, dt = r.run(cmd, ok=(0, 1))
    r.figure(cmd, lines_matching(out, r"^files:", r"^reference failed", r"passed, \d+ failed"), dt)
    r.add("**Kernels written in pyptx, decompiled** (`tests/idiomatic/`: each kernel traced "
          "by pyptx, its PTX through `--sugar`, the result traced again and compared byte "
          "for byte; lines of the original kernel function against the decompiled one, "
          "decorator included, blanks and comments not; counts original/decompiled):\n")
    cmd = ("%s tests/idiomatic/run.py --python %s%s %s/pyptx-codegen"
           % (PY, PY, " --ptxas /usr/local/cuda/bin/ptxas"
              if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else "", B))
    out, dt = r.run(cmd, ok=(0, 1))
    r.figure(cmd, out, dt)
    r.add("**Random DSL programs** (`tools/dslgen/run.py`: kernels of 20-200 lines written "
          "with pyptx's helpers, traced, decompiled with `--sugar`, traced again and compared "
          "up to a consistent renaming; the line ratio is decompiled over generated kernel "
          "function; a fixed seed, so the same programs each time):\n")
    cmd = "%s tools/dslgen/run.py --bin %s --count %d --seed 1 --jobs %d" % (PY, B, a.dslgen, a.jobs)
    out, dt = r.run(cmd, ok=(0, 1))
    r.figure(cmd, dslgen_summary(out), dt)
    if a.dslgen_log:
        long_run(r, a, B, PY)
    r.add("**`--no-debug`**: lines of `--sugar` output with and without the debug data, on "
          "the corpus files that carry line tables:\n")
    cmd = "python3 tools/debug_lines.py --codegen %s/pyptx-codegen" % B
    out, dt = r.run(cmd)
    r.add("```sh\n%s\n```\n" % cmd)
    r.add(out.strip() + "\n")


def long_run(r, a, B, PY):
    """A long run's summary, from its log (too long to run in the report)."""
    with open(a.dslgen_log, encoding="utf-8") as f:
        log = f.read()
    m = re.search(r"^seed (\d+), (\d+) jobs, (\d+) s$", log, re.M)
    if not m:
        sys.exit("perf_report: %s is not the log of tools/dslgen/run.py --seconds" % a.dslgen_log)
    cmd = ("%s tools/dslgen/run.py --bin %s --seconds %s --seed %s --jobs %s"
           % (PY, B, m.group(3), m.group(1), m.group(2)))
    r.add("A longer run of them, made before this report on the same build and machine "
          "(its log: the command's output, with what else ran beside it noted here): %s\n"
          % a.dslgen_note)
    r.figure(cmd, dslgen_summary(log), None)


def library(r, a, B, PY):
    r.add("## Library scale\n")
    if not a.lib:
        r.add("Not measured in this report: it needs NVIDIA library PTX, which is not in "
              "the repository.  Where the CUDA libraries are installed (cuBLASLt, cuDNN, "
              "cuRAND, NCCL), `tools/extract-library-ptx.sh DIR` writes their embedded PTX "
              "(`cuobjdump -xptx all`; hundreds of modules, up to about 40 MB each), "
              "`python3 tools/library_subset.py DIR DIR95` a 95 MB subset of modules of at "
              "most 12 MB, and `python3 tools/perf_report.py --lib DIR95` (or `--lib DIR`) "
              "adds this section: `tools/bench.py`, `tools/library_bench.py` (the `--jobs` "
              "curve up to `nproc`, peak memory per file of 1 MB or more) and "
              "`tools/sugar_speed.sh` and `tools/cli_ratio.py` (`--sugar` over plain "
              "through the program, best of 21) on the largest modules.  Figures from "
              "another machine are not comparable with the ones above.\n")
        return
    lib = a.lib
    r.add("Over `%s` (NVIDIA library PTX; the figures depend on which modules it holds).\n" % lib)
    cmd = "%s tools/bench.py --build %s --seconds 1 --rounds %d %s" % (PY, B, a.rounds, lib)
    out, dt = r.run(cmd)
    r.figure(cmd, out, dt)
    n = os.cpu_count() or 1
    jobs = ",".join(str(j) for j in (1, 2, 4, 8, 16, 32, 64) if j <= n) or "1"
    cmd = "python3 tools/library_bench.py --build %s --jobs %s --rounds %d %s" % (B, jobs, a.rounds, lib)
    out, dt = r.run(cmd)
    r.figure(cmd, out, dt)
    files = []
    for root, _, names in os.walk(os.path.join(ROOT, lib) if not os.path.isabs(lib) else lib,
                                  followlinks=True):
        files += [os.path.join(root, x) for x in names if x.endswith(".ptx")]
    files.sort(key=os.path.getsize, reverse=True)
    if files:
        cmd = "ROUNDS=%d tools/sugar_speed.sh %s %s" % (a.rounds, B, " ".join(files[:3]))
        out, dt = r.run(cmd)
        r.figure(cmd, out, dt, note="(`--sugar` over plain in MB/s: in process, and by the "
                 "program's wall time, `cli`)")
        cmd = "python3 tools/cli_ratio.py %s -- %s" % (B, " ".join(files[:2]))
        out, dt = r.run(cmd)
        r.figure(cmd, out, dt, note="(the program's best wall and CPU time, plain and "
                 "`--sugar`, on the two largest modules)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="docs/performance.md")
    ap.add_argument("--lib", help="a directory of NVIDIA library PTX (library-scale figures)")
    ap.add_argument("--quick", action="store_true", help="smaller counts, one round")
    ap.add_argument("--quiet", action="store_true", help="do not log each command")
    ap.add_argument("--dslgen-log", help="the output of a long tools/dslgen/run.py --seconds "
                    "run, shown under its command")
    ap.add_argument("--dslgen-note", default="", help="what ran beside that run")
    a = ap.parse_args()
    a.jobs = os.cpu_count() or 1
    if a.quick:   # small inputs: for checking the script, not for figures
        global SHARED, OWN
        SHARED, OWN = SHARED + "/pyptx/external/triton", OWN + "/triton"
    a.rounds = 1 if a.quick else 3
    a.dslgen = 40 if a.quick else 400
    a.mb = 2 if a.quick else 10
    B = a.build.rstrip("/")
    PY = B + "/venv/bin/python"
    for need in ("pyptx-roundtrip", "pyptx-codegen", "pyptx-diff", "bench_frontend", "venv/bin/python"):
        if not os.path.exists(os.path.join(ROOT, B, need)):
            sys.exit("perf_report: %s/%s is missing: run tools/setup.sh %s first" % (B, need, B))
    r = Report(a.quiet)
    t0 = time.monotonic()
    header(r, a)
    with tempfile.TemporaryDirectory(prefix="perf_report.") as work:
        corpus_counts(r, a, B, PY)
        speed(r, a, B, PY)
        big_module(r, a, B, PY, work)
        sugar_lines(r, a, B, PY)
        library(r, a, B, PY)
    r.add("## Comparing two builds\n")
    r.add("Timings of separate runs on a shared machine differ by tens of percent; to "
          "compare two builds, run them interleaved, so that both go through the same "
          "drift, and check that a change meant to be invisible is:\n")
    r.add("```sh\n"
          "python3 tools/ab.py --rounds 5 --modes exact,canonical,codegen OLD_BUILD NEW_BUILD -- %s %s\n"
          "tools/same_output.sh OLD_BUILD NEW_BUILD %s %s       # the same Python, plain and --sugar\n"
          "valgrind --tool=callgrind %s/bench_frontend --mode exact --repeat 1 %s   # instructions: steady on a busy machine\n"
          "```\n" % (SHARED_ROOT, OWN_ROOT, OWN_ROOT, SHARED_ROOT, B, SHARED_ROOT))
    r.add("`bench_frontend --pass-times` (and `pyptx-codegen --stats`) give each sugar "
          "pass's time; `python3 tools/cli_ratio.py --passes --cpu 1 BUILD -- FILE` what each "
          "pass adds through the program, printing included.\n")
    r.add("## Not here\n")
    r.add("GPU checks (`pyptx-roundtrip --jit`, `harness.py --jit`: the original and the "
          "rewritten text JIT-compiled by the CUDA driver, cubins compared) need a GPU and "
          "its driver; the test suite runs them where there is one (`ctest -R jit`) and "
          "reports them skipped where there is not.  Fuzzing campaigns and what they found: "
          "`tests/fuzz/RESULTS.md`.\n")
    r.add("The whole report took %.0f s%s.\n" % (time.monotonic() - t0, " (`--quick`)" if a.quick else ""))
    out = os.path.join(ROOT, a.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(r.parts).rstrip("\n") + "\n")
    print("perf_report: wrote %s in %.0f s" % (a.out, time.monotonic() - t0), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
