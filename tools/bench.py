#!/usr/bin/env python3
"""Front-end throughput: the C parser+emitter against pyptx 0.1.1, same files, same run.

    python tools/bench.py --build build [--seconds 2] [--rounds 5] PATH...

Runs build/bench_frontend (single thread, files preloaded, parse + exact
emit, then parse + canonical emit) and, when `pyptx` imports, the reference
`pyptx.parser.parse` + `pyptx.emitter.emit` over the same files, and prints
MB/s for each and the ratio.  Each measurement is made --rounds times and
the fastest kept, on both sides: on a shared machine a single run can lose
a third to neighbours.  Run it with the venv python that has pyptx
(tools/setup.sh makes build/venv).
"""
import argparse
import os
import subprocess
import sys
import time


def ptx_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in names if n.endswith(".ptx")]
        else:
            out.append(p)
    return sorted(out)


def c_bench(build, mode, seconds, paths, options=()):
    """MB/s of one bench_frontend run; options: more of its own (--pieces)."""
    exe = os.path.join(build, "bench_frontend")
    res = subprocess.run([exe, "--mode", mode, "--seconds", str(seconds), *options] + paths,
                         check=True, capture_output=True, text=True).stdout
    fields = dict(kv.split("=") for kv in res.split())
    return float(fields["mbps"])


def reference_bench(files, seconds):
    try:
        from pyptx.parser import parse
        from pyptx.emitter import emit
    except ImportError:
        return None, 0
    texts = [open(f, encoding="utf-8", errors="surrogateescape").read() for f in files]
    size = sum(len(t.encode("utf-8", "surrogateescape")) for t in texts)
    done, ok, t0 = 0, 0, time.perf_counter()
    while True:
        for t in texts:
            try:
                emit(parse(t))
                ok += 1
            except Exception:  # the reference rejects some inputs; still timed
                pass
        done += size
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return done / dt / 1e6, ok // max(1, done // max(1, size))


def reference_codegen_bench(files, seconds):
    """pyptx.codegen.ptx_to_python (plain) over the same files: MB/s of PTX
    input, or None.  Files it rejects are still timed (and counted)."""
    try:
        from pyptx.codegen import ptx_to_python
    except ImportError:
        return None, 0
    texts = [open(f, encoding="utf-8", errors="surrogateescape").read() for f in files]
    size = sum(len(t.encode("utf-8", "surrogateescape")) for t in texts)
    done, bad, t0 = 0, 0, time.perf_counter()
    while True:
        bad = 0
        for t in texts:
            try:
                ptx_to_python(t)
            except Exception:
                bad += 1
        done += size
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return done / dt / 1e6, bad


def best_of(rounds, run):
    """The fastest of `rounds` runs of run() -> (MB/s, extra): the others
    lost time to something else on the machine, for either side alike."""
    best = None
    for _ in range(rounds):
        r = run()
        if r[0] is None:
            return r
        if best is None or r[0] > best[0]:
            best = r
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5,
                    help="runs of each measurement; the fastest is reported")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    n = max(1, a.rounds)
    print(f"{'corpus':40} {'files':>5} {'MB':>6} {'C exact':>9} {'C canon':>9} "
          f"{'pyptx':>8} {'ratio':>7} {'C codegen':>10} {'pyptx cg':>9} {'ratio':>7}")
    for path in a.paths:
        files = ptx_files([path])
        mb = sum(os.path.getsize(f) for f in files) / 1e6
        def c(mode):
            return best_of(n, lambda: (c_bench(a.build, mode, a.seconds, [path]), 0))[0]
        exact, canon = c("exact"), c("canonical")
        ref, _ = best_of(n, lambda: reference_bench(files, a.seconds))
        ref_s = f"{ref:8.2f}" if ref else "     n/a"
        ratio = f"{exact / ref:6.0f}x" if ref else "    n/a"
        cg = c("codegen")
        rcg, rbad = best_of(n, lambda: reference_codegen_bench(files, a.seconds))
        rcg_s = f"{rcg:9.3f}" if rcg else "      n/a"
        cg_ratio = f"{cg / rcg:6.0f}x" if rcg else "    n/a"
        print(f"{path[-40:]:40} {len(files):5} {mb:6.2f} {exact:9.1f} {canon:9.1f} "
              f"{ref_s} {ratio} {cg:10.1f} {rcg_s} {cg_ratio}")
        if rbad:
            print(f"  (pyptx.codegen.ptx_to_python raised on {rbad} of {len(files)} files; timed anyway)")
    print(f"MB/s of PTX input, single thread, the fastest of {n} runs of "
          f"{a.seconds:g} s each.\nparse + emit: ratio = C exact / pyptx "
          "parse+emit;\ncodegen: parse + pyptx-codegen (plain) vs "
          "pyptx.codegen.ptx_to_python, ratio = C / pyptx")


if __name__ == "__main__":
    sys.exit(main())
