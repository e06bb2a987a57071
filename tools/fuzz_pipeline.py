#!/usr/bin/env python3
"""Differential fuzzing of the whole pipeline: PTX -> Python -> pyptx -> PTX.

    fuzz_pipeline.py [--jobs N] [--seed S] [--save DIR] --bin BUILD SECONDS
    fuzz_pipeline.py --bin BUILD --replay DIR

Runs under a python with pyptx 0.1.1 (the generated code is traced in the
worker processes themselves, which import pyptx once).  Each case takes a
real PTX file (tests/corpus and ../shared/corpus, up to 16 KiB, and the
kernels of tests/idiomatic as pyptx traces them), applies
one to three structure-aware mutations (mutate.py) and puts the mutant
through every oracle (oracles.py):

  roundtrip  pyptx-roundtrip --canonical: exact bytes, the canonical
             printer's fixed point and tokens (or a clean diagnostic)
  ptxas      where ptxas assembles the mutant, its canonical text
             assembles to the same code sections (cubin_cmp); one case in
             32, ptxas being slow
  codegen    plain, all sugar passes, and one sugar pass alone: the Python
             runs under pyptx, and every entry and the whole module trace
             back to the mutant (plain: the same tokens; sugar: up to one
             consistent renaming, which every reference follows)
  diff       pyptx-diff seed mutant: exit status 1 exactly when the
             statements differ; for a single edit, exactly the statements
             the mutation changed; for two or three, no more than they
             changed

Codegen runs inside the worker, through the pyptx_c extension of the same
build (BUILD/python) where there is one, which saves three program
launches a case; a worker that dies is a crash, whose case the runner
makes again and checks with the programs.

A failure is saved as found under SAVE/pending/, then minimized (delta
debugging over lines, keeping the same oracle and kind of message
failing) and saved under --save (default tests/fuzz/pipeline), where
`--replay` (CI) runs every oracle on it again.  The last line printed is
`N cases, N unfaithful, N crashes`; the exit status is 0 only if both
counts are 0.
"""
import argparse
import hashlib
import importlib.util
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import shutil
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "fuzz"))
sys.path.insert(0, os.path.join(ROOT, "tests", "pyptx"))
import mutate  # noqa: E402
import oracles  # noqa: E402

MAX_SEED_BYTES = 16 * 1024


def seeds(tmp):
    """The corpus files, and the kernels of tests/idiomatic traced by pyptx
    (PTX as pyptx writes it: the shapes the sugar passes raise)."""
    out = []
    for top in (os.path.join(ROOT, "tests", "corpus"),
                os.path.join(os.path.dirname(ROOT), "shared", "corpus")):
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                p = os.path.join(dirpath, f)
                if f.endswith(".ptx") and os.path.getsize(p) <= MAX_SEED_BYTES:
                    out.append(p)
    idiomatic = os.path.join(ROOT, "tests", "idiomatic")
    traced = os.path.join(tmp, "seeds")
    os.makedirs(traced, exist_ok=True)
    sys.path.insert(0, idiomatic)
    for f in sorted(os.listdir(idiomatic)):
        if not f.endswith(".py") or f == "run.py":
            continue
        spec = importlib.util.spec_from_file_location("idiomatic_" + f[:-3],
                                                      os.path.join(idiomatic, f))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        p = os.path.join(traced, f[:-3] + ".ptx")
        with open(p, "w", encoding="utf-8") as fh:
            fh.write(mod.KERNEL.ptx(**mod.ARGS))
        out.append(p)
    return sorted(out)


def minimize(text, fails, deadline=None):
    """Delta debugging over lines: the smallest text (by lines) that still
    fails the same way (fails(text) -> bool); at `deadline` (time.time()),
    the smallest found so far."""
    lines = text.splitlines(keepends=True)
    n = 2
    while len(lines) >= 2:
        chunk = max(1, len(lines) // n)
        reduced = False
        for i in range(0, len(lines), chunk):
            if deadline is not None and time.time() >= deadline:
                return "".join(lines)
            cand = lines[:i] + lines[i + chunk:]
            if cand and fails("".join(cand)):
                lines = cand
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    return "".join(lines)


def signature(msg):
    """What kind of failure a message reports, without its numbers."""
    return re.sub(r"\d+", "N", msg)[:60]


_CTX = {}


def _init(bindir, tmp, save_dir):
    _CTX["o"] = oracles.Oracles(bindir, tmp)
    _CTX["pending"] = os.path.join(save_dir, "pending")


# Shrinking a failure found by a timed run stops this long after the run's
# end: a big mutant can take longer to shrink than the run itself (CI
# fuzzes for 60 s, under a 900 s timeout), and the mutant as found is saved
# before shrinking starts (pending/; --minimize finishes the job).
SHRINK_GRACE = 120


def run_case(job):
    """One case in a worker: (seed path, rng seed, end of the run) -> (kind,
    oracle, message, mutant, minimized, diff pair) with kind in ok /
    rejected / skipped / unfaithful / crash."""
    path, rs, end = job
    o = _CTX["o"]
    rng = random.Random(rs)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        src = f.read()
    m = mutate.mutate(src, rng)
    if m is None:
        return ("skipped", "", "", "", "", None)
    kind, oracle, msg = o.check(src, m)
    small = ""
    if kind in ("unfaithful", "crash") and oracle.startswith("diff"):
        return (kind, oracle, msg, m.text, "", {"seed": src, "change": m.change})
    if kind in ("unfaithful", "crash"):
        # the mutant as found, before a minimization that may outlast the run
        save(_CTX["pending"], oracle, m.text)
        small = shrink(o, m.text, kind, oracle, msg, end + SHRINK_GRACE)
    return (kind, oracle, msg, m.text, small, None)


def pass_alone(name):
    """The sugar pass a failure ran alone, from its oracle (codegen-sugar-PASS)
    or its file's name (ORACLE-HASH.ptx, save()), or None."""
    m = re.match(r"codegen-sugar-([a-z]+)(-[0-9a-f]+\.ptx)?$", name)
    return m.group(1) if m else None


def shrink(o, text, kind, oracle, msg, deadline=None):
    """The smallest text that fails the same way: the same oracle and the
    same message up to numbers, not another failure met on the way (at
    `deadline`, the smallest so far)."""
    def same(t):
        k2, o2, m2 = o.check(None, mutate.Mutant(t, None))
        return k2 == kind and o2 == oracle and signature(m2) == signature(msg)
    o.always_ptxas = oracle == "ptxas"
    o.one_pass = pass_alone(oracle)
    try:
        return minimize(text, same, deadline)
    finally:
        o.always_ptxas, o.one_pass = False, None


def minimize_file(bindir, path, save_dir, tmp):
    """--minimize: shrink a saved failure (say one left in pending/) and save
    the result beside the others."""
    o = oracles.Oracles(bindir, tmp)
    o.inproc = False
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    o.one_pass = pass_alone(os.path.basename(path))
    kind, oracle, msg = o.check(None, mutate.Mutant(text, None))
    o.one_pass = None
    if kind not in ("unfaithful", "crash"):
        print("%s: passes every oracle (%s)" % (path, kind))
        return 1
    print("%s: %s %s: %s" % (path, kind, oracle, msg.strip()[:400]), flush=True)
    small = shrink(o, text, kind, oracle, msg)
    print("saved %s (%d lines from %d)" % (save(save_dir, oracle, small),
          small.count("\n"), text.count("\n")))
    return 0


def save(dirname, oracle, text, pair=None):
    """The failing mutant as ORACLE-HASH.ptx; a diff failure, which needs
    the seed and the edit, also as ORACLE-HASH.json."""
    os.makedirs(dirname, exist_ok=True)
    h = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    p = os.path.join(dirname, "%s-%s.ptx" % (oracle, h))
    with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    if pair:
        with open(p[:-4] + ".json", "w", encoding="utf-8", errors="surrogateescape") as f:
            json.dump(pair, f)
    return p


def replay(bindir, dirname, tmp):
    o = oracles.Oracles(bindir, tmp)
    o.inproc = False       # the programs: a crash must not end the replay
    o.always_ptxas = True
    bad = n = 0
    for f in sorted(os.listdir(dirname)) if os.path.isdir(dirname) else []:
        if not f.endswith(".ptx"):
            continue
        n += 1
        with open(os.path.join(dirname, f), encoding="utf-8", errors="surrogateescape") as fh:
            t = fh.read()
        seed, change = None, None
        pair = os.path.join(dirname, f[:-4] + ".json")
        if os.path.exists(pair):
            with open(pair, encoding="utf-8", errors="surrogateescape") as fh:
                d = json.load(fh)
            seed, change = d["seed"], tuple(d["change"]) if d["change"] else None
        o.one_pass = pass_alone(f)
        kind, oracle, msg = o.check(seed, mutate.Mutant(t, change))
        if kind in ("unfaithful", "crash"):
            bad += 1
            print("FAIL %s: %s %s: %s" % (f, kind, oracle, msg))
    print("%d replayed, %d failed" % (n, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="build directory with the programs")
    ap.add_argument("--jobs", type=int, default=(os.cpu_count() or 1) + 1,
                    help="worker processes (default: one more than the cores: "
                    "they wait on the programs)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--save", default=os.path.join(ROOT, "tests", "fuzz", "pipeline"))
    ap.add_argument("--replay", help="run the oracles on every .ptx of this directory")
    ap.add_argument("--minimize", metavar="FILE",
                    help="shrink one failing file and save it in the --save directory")
    ap.add_argument("seconds", nargs="?", type=float, default=60)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fuzz-pipeline-")
    try:
        if a.minimize:
            return minimize_file(a.bin, a.minimize, a.save, tmp)
        return replay(a.bin, a.replay, tmp) if a.replay else fuzz(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _worker(conn, bindir, tmp, save_dir):
    """A worker process: cases in, results out, until None comes."""
    _init(bindir, tmp, save_dir)
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(run_case(job))


class Pool:
    """Worker processes, one case each at a time.  The oracles generate code
    in the worker itself (oracles.py: inproc), so a crash of the library
    kills the worker: the pool notices, reports the case, and starts
    another worker."""

    def __init__(self, n, args):
        self.args, self.busy, self.idle = args, {}, []
        for _ in range(n):
            self.idle.append(self._start())

    def _start(self):
        parent, child = multiprocessing.Pipe()
        p = multiprocessing.Process(target=_worker, args=(child,) + self.args, daemon=True)
        p.start()
        child.close()
        return (p, parent)

    def submit(self, job):
        w = self.idle.pop()
        w[1].send(job)
        self.busy[w[1]] = (w, job)

    def results(self):
        """[(job, result or None if the worker died)] of the cases done."""
        ready = multiprocessing.connection.wait(
            [c for c in self.busy] + [w[0].sentinel for w, _ in self.busy.values()])
        out = []
        for c, (w, job) in list(self.busy.items()):
            if c in ready or w[0].sentinel in ready:
                try:
                    res = c.recv()
                except (EOFError, OSError):
                    res = None
                    w[0].join()
                    w = self._start()
                del self.busy[c]
                self.idle.append(w)
                out.append((job, res))
        return out

    def close(self):
        for p, c in self.idle + [w for w, _ in self.busy.values()]:
            try:
                c.send(None)
            except OSError:
                pass
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()


def died(job, bindir, tmp, save_dir):
    """The case a worker died on: made again here, saved, and put through
    the oracles with the programs (whose crashes a process survives)."""
    path, rs, end = job
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        src = f.read()
    m = mutate.mutate(src, random.Random(rs))
    if m is None:
        return ("crash", "worker", "the worker died on %s, before any oracle" % path,
                "", "", None)
    save(os.path.join(save_dir, "pending"), "worker", m.text)
    o = oracles.Oracles(bindir, tmp)
    o.inproc = False
    kind, oracle, msg = o.check(src, m)
    if kind != "crash":
        kind, oracle, msg = "crash", "worker", "the worker died in-process; the programs " \
            "say %s (%s)" % (kind, msg[:200])
        return (kind, oracle, msg, m.text, "", None)
    return (kind, oracle, msg, m.text,
            shrink(o, m.text, kind, oracle, msg, end + SHRINK_GRACE), None)


def fuzz(a, tmp):
    seed = a.seed if a.seed is not None else int(time.time())
    rng = random.Random(seed)
    files = seeds(tmp)
    print("seed %d, %d seed files, %d jobs, %.0f s" % (seed, len(files), a.jobs, a.seconds))
    counts = dict.fromkeys(("ok", "rejected", "skipped", "unfaithful", "crash"), 0)
    t0 = time.time()
    pool = Pool(a.jobs, (a.bin, tmp, a.save))
    try:
        while pool.busy or time.time() - t0 < a.seconds:
            while pool.idle and time.time() - t0 < a.seconds:
                pool.submit((rng.choice(files), rng.getrandbits(64), t0 + a.seconds))
            for job, res in pool.results():
                res = res or died(job, a.bin, tmp, a.save)
                kind, oracle, msg, text, small, pair = res
                counts[kind] += 1
                if kind in ("unfaithful", "crash"):
                    p = save(a.save, oracle, small or text, pair) if text else "(nothing to save)"
                    print("%s (%s): %s\n  saved %s" % (kind, oracle, msg.strip()[:400], p),
                          flush=True)
    finally:
        pool.close()
    dt = time.time() - t0
    cases = sum(counts[k] for k in ("ok", "rejected", "unfaithful", "crash"))
    print("%.0f s, %.1f cases/s; %d parsed and passed every oracle, %d rejected with a "
          "diagnostic, %d mutations that changed nothing" % (
              dt, cases / max(dt, 1e-9), counts["ok"], counts["rejected"], counts["skipped"]))
    print("%d cases, %d unfaithful, %d crashes" % (cases, counts["unfaithful"], counts["crash"]))
    return 1 if counts["unfaithful"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
