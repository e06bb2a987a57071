#!/usr/bin/env python3
"""Random pyptx DSL programs through `--sugar` ("Csmith for pyptx").

    run.py --bin BUILD [--seconds N | --count N] [--seed S] [--jobs J]
           [--save DIR] [--minimize] [--prob NAME=P ...]
    run.py --bin BUILD --replay DIR
    run.py --show S:I                  # print program I of seed S

Runs under a python with pyptx 0.1.1 (build/venv/bin/python).  Program i
of seed S (gen.py: the same S and i give the same text, whatever --jobs)
is a kernel written with the DSL's own helpers, 20-200 lines, mixing
operators, Python loops, helpers, ptx.if_/loop/range_/kloop, shared
memory, mbarriers and pipelines, wgmma, TMA and tcgen05.  Each one is

  1. traced by pyptx: the original PTX;
  2. decompiled with --sugar (pyptx_c.ptx_to_python of BUILD/python, in
     the worker; the pyptx-codegen program where there is no extension);
  3. run, and its module compared with the original by the harness's sugar
     rule (tokens equal up to one consistent renaming of local names);
  4. classed: faithful, unfaithful (traces to different PTX), crashed
     (codegen fails, the Python does not run, or the worker dies), invalid
     (the generated program itself does not trace: a generator bug).

The summary gives the counts, the byte-identical figure, programs per
second, the line ratio (decompiled kernel function over generated one,
run.py's count: decorator included, blanks and comments not), what each
construct's kernels gave, and the failure kinds with an example each.
--save DIR writes every failing program as DIR/CLASS-S-I.py (seed, class
and reason in its header); --minimize also shrinks the first program of
each kind of failure (minimize.py) to DIR/min-CLASS-S-I.py.  --replay DIR
checks every .py of DIR again (tests/dslgen/regressions/).  The seed,
when not given, comes from the clock; it is printed first.  The last line
is `N passed, N failed` (failed = unfaithful + crashed); the exit status
is 0 only if none failed.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen  # noqa: E402
import report  # noqa: E402
from minimize import minimize, signature  # noqa: E402

FAILED = ("unfaithful", "crashed")
MIN_SECONDS = 90


def _worker(conn, bindir, seed, probs):
    """Jobs in, results out: ("gen", i), ("file", path), ("min", i, src,
    sig) or None to stop."""
    import check
    c = check.Checker(bindir)
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(do_job(c, job, seed, probs))


def do_job(c, job, seed, probs):
    if job[0] == "min":
        _, i, src, sig = job
        small = minimize(src, lambda t: same_failure(c, t, sig), time.time() + MIN_SECONDS)
        return {"i": i, "small": small, "first": first_diff(c, small)}
    if job[0] == "gen":
        i = job[1]
        src, info = gen.generate(seed, i, probs)
        name = "k%d" % i
    else:
        i, info, name = job[1], {"constructs": []}, None
        with open(job[1], encoding="utf-8") as f:
            src = f.read()
    r = c.check(src, name)
    out = {"i": i, "cls": r.cls, "reason": r.reason, "constructs": info["constructs"],
           "lines_in": r.lines_in, "lines_out": r.lines_out, "identical": r.identical}
    if r.cls != "faithful":
        out["src"] = src
        out["sig"] = signature(r.cls, r.reason)
    return out


def same_failure(c, text, sig):
    r = c.check(text)
    return r.cls in FAILED and signature(r.cls, r.reason) == sig


def first_diff(c, text):
    r = c.check(text)
    return r.reason


def make_pool(n, bindir, seed, probs):
    import fuzz_pipeline

    class Pool(fuzz_pipeline.Pool):
        """fuzz_pipeline's pool (a worker that dies is replaced, its job
        reported with no result), with this driver's worker."""

        def _start(self):
            import multiprocessing
            parent, child = multiprocessing.Pipe()
            p = multiprocessing.Process(target=_worker, args=(child,) + self.args, daemon=True)
            p.start()
            child.close()
            return (p, parent)
    return Pool(n, (bindir, seed, probs))


def run_jobs(pool, jobs, deadline=None):
    """Feed jobs (an iterator) to the pool until they end or the deadline;
    yields (job, result or None where the worker died)."""
    jobs = iter(jobs)
    more = True
    while pool.busy or more:
        while more and pool.idle and (deadline is None or time.time() < deadline):
            job = next(jobs, None)
            if job is None:
                more = False
                break
            pool.submit(job)
        if deadline is not None and time.time() >= deadline:
            more = False
        if pool.busy:
            yield from pool.results()


def died(i, seed, probs):
    """The result of a program whose worker died (a crash of the extension)."""
    return {"i": i, "cls": "crashed", "reason": "the worker died", "constructs":
            gen.generate(seed, i, probs)[1]["constructs"], "lines_in": 0, "lines_out": 0,
            "identical": False, "src": gen.generate(seed, i, probs)[0],
            "sig": "crashed: the worker died"}


def save(d, seed, res):
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "%s-%d-%d.py" % (res["cls"], seed, res["i"]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(header(seed, res["i"], res["cls"], res["reason"]) + res["src"])
    return path


def header(seed, i, cls, reason):
    lines = ["# dslgen: seed %d, program %d (tools/dslgen/run.py --show %d:%d)" % (seed, i, seed, i),
             "# class: %s" % cls]
    lines += ["# " + ln for ln in reason.strip().splitlines()[:4]]
    return "\n".join(lines) + "\n"


def random_run(a, probs):
    seed = a.seed if a.seed is not None else int(time.time())
    print("seed %d, %d jobs, %s" % (seed, a.jobs, "%d programs" % a.count if a.count
                                      else "%.0f s" % a.seconds), flush=True)
    pool = make_pool(a.jobs, a.bin, seed, probs)
    stats = report.Stats()
    firsts = {}
    t0 = time.time()
    jobs = (("gen", i) for i in (range(a.count) if a.count else _count()))
    try:
        for job, res in run_jobs(pool, jobs, None if a.count else t0 + a.seconds):
            res = res or died(job[1], seed, probs)
            stats.add(res)
            if res["cls"] in FAILED or res["cls"] == "invalid":
                firsts.setdefault(res["sig"], res)
                if a.save and res["cls"] in FAILED:
                    save(a.save, seed, res)
        dt = time.time() - t0
        mins = {}
        if a.minimize and firsts:
            mins = minimize_all(pool, firsts, seed, a.save)
    finally:
        pool.close()
    report.summary(stats, dt, firsts, mins, seed)
    return 1 if stats.failed() else 0


def _count():
    i = 0
    while True:
        yield i
        i += 1


def minimize_all(pool, firsts, seed, save_dir):
    jobs = [("min", r["i"], r["src"], sig) for sig, r in sorted(firsts.items())
            if r["cls"] in FAILED]
    print("minimizing %d programs (one per kind of failure, %d s at most each)"
          % (len(jobs), MIN_SECONDS), flush=True)
    out = {}
    for job, res in run_jobs(pool, jobs):
        if res is None:
            continue
        out[job[3]] = res
        if save_dir:
            os.makedirs(save_dir, exist_ok=True)
            cls = job[3].split(":")[0]
            with open(os.path.join(save_dir, "min-%s-%d-%d.py" % (cls, seed, job[1])), "w") as f:
                f.write(header(seed, job[1], cls, res["first"]) + res["small"])
    return out


def replay(a):
    files = sorted(os.path.join(a.replay, f) for f in os.listdir(a.replay) if f.endswith(".py")) \
        if os.path.isdir(a.replay) else []
    pool = make_pool(min(a.jobs, max(len(files), 1)), a.bin, 0, {})
    passed = failed = 0
    try:
        for job, res in run_jobs(pool, (("file", f) for f in files)):
            name = os.path.basename(job[1])
            cls = res["cls"] if res else "crashed"
            if cls == "faithful":
                passed += 1
            else:
                failed += 1
                print("FAIL %s: %s: %s" % (name, cls, (res or {}).get("reason", "worker died")
                                           .strip().splitlines()[0][:300]))
    finally:
        pool.close()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build"), help="the build directory")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--count", type=int, help="this many programs (instead of --seconds)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--save", help="write failing programs here")
    ap.add_argument("--minimize", action="store_true",
                    help="shrink the first program of each kind of failure (into --save)")
    ap.add_argument("--prob", action="append", default=[], metavar="NAME=P",
                    help="a construct's probability (gen.PROBS), e.g. wgmma=0.5")
    ap.add_argument("--replay", help="check every .py of this directory")
    ap.add_argument("--show", metavar="S:I", help="print program I of seed S")
    a = ap.parse_args()
    probs = {}
    for kv in a.prob:
        k, v = kv.split("=")
        if k not in gen.PROBS:
            ap.error("no construct %r (gen.PROBS)" % k)
        probs[k] = float(v)
    if a.show:
        s, i = a.show.split(":")
        sys.stdout.write(gen.generate(int(s), int(i), probs)[0])
        return 0
    try:   # (the workers trace with it: say so once, not in each worker)
        import pyptx  # noqa: F401
    except ImportError:
        ap.error("pyptx is not importable by %s: run this with build/venv/bin/python"
                 % sys.executable)
    if a.replay:
        return replay(a)
    return random_run(a, probs)


if __name__ == "__main__":
    sys.exit(main())
