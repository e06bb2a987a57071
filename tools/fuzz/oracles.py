"""The oracles of tools/fuzz_pipeline.py, for one mutant at a time.

Oracles(bindir, tmp).check(seed_text, mutant) -> (kind, oracle, message):
kind is "ok" (every oracle holds), "rejected" (the programs refuse the
mutant with a `file:line:col: error:` diagnostic: not PTX, or nothing
pyptx can express), "unfaithful" (an oracle does not hold) or "crash" (a
program died, hung or printed a malformed diagnostic); oracle names which.

The generated Python is traced in this process (tests/pyptx/intrace.py):
pyptx is imported once, and each generated file runs in a fresh namespace
under an alarm.
"""
import json
import os
import random
import re
import signal
import shutil
import subprocess
import sys

import intrace
import ptxtok

TIMEOUT = 20
CUDA_PTXAS = "/usr/local/cuda/bin/ptxas"
DIAG = re.compile(r"^[^\n]*:\d+:\d+: error: ", re.M)
TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.M)
# ptxas takes ten times as long as everything else together: it checks
# one case in this many (every replayed one; a minimization only where
# ptxas is the oracle that failed)
PTXAS_SHARE = 1 / 32


def statements_on(text, lines):
    """How many statements the given lines of text hold, at least one per
    line (an edited line inside a statement split over lines changes that
    statement): a statement ends in `;`, `:` (a label) or is a brace."""
    per_line = {}
    for tok, line in ptxtok.tokenize(text):
        if tok in (";", ":", "{", "}"):
            per_line[line] = per_line.get(line, 0) + 1
    return sum(max(1, per_line.get(ln, 0)) for ln in lines)


class Oracles:
    def __init__(self, bindir, tmp):
        import pyptx  # noqa: F401  (once per worker)
        self.bin = bindir
        self.path = os.path.join(tmp, "fuzz-pipeline-%d.ptx" % os.getpid())
        self.seed_path = self.path[:-4] + ".seed.ptx"
        self.rng = random.Random(os.getpid())
        self.cache = {}
        self.one_pass = None   # the pass run alone, where a replay names it
        self.always_ptxas = False   # a replay runs every oracle
        self.ptxas = shutil.which("ptxas") or (os.path.exists(CUDA_PTXAS) and CUDA_PTXAS)
        self.cubin_cmp = self.prog("cubin_cmp")
        if not os.path.exists(self.cubin_cmp):
            self.ptxas = None
        r = subprocess.run([self.prog("pyptx-codegen"), "--list-passes"], capture_output=True,
                           text=True)
        self.passes = [ln.split()[0] for ln in r.stdout.splitlines() if ln.strip()]
        signal.signal(signal.SIGALRM, intrace.on_alarm)
        # codegen in this process, through the extension of the same build
        # (BUILD/python), where there is one: three program launches fewer
        # a case.  A crash then takes the worker down; the runner sees it
        # and checks the case again with inproc off (the programs).
        self.pyptx_c = None
        if os.path.isdir(os.path.join(bindir, "python", "pyptx_c")):
            sys.path.insert(0, os.path.join(bindir, "python"))
            import pyptx_c
            self.pyptx_c = pyptx_c
        self.inproc = self.pyptx_c is not None
        self.sampled = False

    def prog(self, name):
        return os.path.join(self.bin, name)

    def run(self, args):
        """The program's CompletedProcess, or None if it ran past TIMEOUT.
        The alarm, not subprocess's timeout, bounds it: that one polls the
        child with sleeps, half a millisecond a call."""
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        signal.alarm(TIMEOUT)
        try:
            out, err = p.communicate()
        except intrace.Alarm:
            p.kill()
            p.communicate()
            return None
        finally:
            signal.alarm(0)
        return subprocess.CompletedProcess(args, p.returncode, out, err)

    def check(self, seed_text, mutant):
        with open(self.path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutant.text)
        steps = [self.roundtrip, self.codegen, lambda: self.diff(seed_text, mutant)]
        # a sampled case also asks the programs (ptxas, pyptx-diff's status)
        self.sampled = self.always_ptxas or self.rng.random() < PTXAS_SHARE
        if self.ptxas and self.sampled:
            steps.insert(1, lambda: self.machine_code(mutant.text))
        for step in steps:
            res = step()
            if res is not None:
                return res
        return ("ok", "all", "")

    # -- round trip ---------------------------------------------------------

    def roundtrip(self):
        r = self.run([self.prog("pyptx-roundtrip"), "--canonical", "--json", self.path])
        if r is None or r.returncode not in (0, 1):
            return ("crash", "roundtrip", "status %s" % (r and r.returncode))
        try:
            rep = json.loads(r.stdout)["files"][0]
        except (ValueError, KeyError, IndexError):
            return ("crash", "roundtrip", "no JSON report: %r" % r.stdout[:200])
        if rep["ok"]:
            return None
        err = rep.get("error", "")
        if DIAG.match(err):
            return ("rejected", "roundtrip", err)
        return ("unfaithful", "roundtrip", err)

    # -- machine code -----------------------------------------------------------

    def machine_code(self, text):
        """Where ptxas accepts the mutant, its canonical text assembles to
        the same code sections (cubin_cmp: .text, .nv.info, constants,
        shared, relocations)."""
        m = TARGET.search(text)
        if not m:
            return None
        arch, a, b = m.group(1), self.path[:-4] + ".a.cubin", self.path[:-4] + ".b.cubin"
        r = self.run([self.ptxas, "-arch=" + arch, self.path, "-o", a])
        if r is None or r.returncode != 0:
            return None                     # not PTX that ptxas takes
        canon = self.run([self.prog("pyptx-roundtrip"), "--emit", "--canonical", self.path])
        if canon is None or canon.returncode != 0:
            return ("unfaithful", "ptxas", "the canonical printer failed where ptxas did not")
        cpath = self.path[:-4] + ".canon.ptx"
        with open(cpath, "wb") as f:
            f.write(canon.stdout)
        r = self.run([self.ptxas, "-arch=" + arch, cpath, "-o", b])
        if r is None or r.returncode != 0:
            return ("unfaithful", "ptxas", "ptxas rejects the canonical text: %s"
                    % (r and r.stderr.decode("utf-8", "replace")[-300:]))
        r = self.run([self.cubin_cmp, a, b, "-q"])
        if r is None or r.returncode != 0:
            return ("unfaithful", "ptxas", "code sections differ (cubin_cmp status %s)"
                    % (r and r.returncode))
        return None

    # -- codegen ---------------------------------------------------------------

    def codegen(self):
        text = open(self.path, encoding="utf-8", errors="surrogateescape").read()
        toks = ptxtok.tokenize(text)
        one = self.one_pass or (self.rng.choice(self.passes) if self.passes else None)
        self.cache = {}        # the mutant's local names, once per case
        self.traced = {}       # generated text -> renaming allowed: checked already
        for mode in ("plain", "sugar") + (("sugar=" + one,) if one else ()):
            res = self.one_codegen(mode, text, toks)
            if res is not None:
                return res
        return None

    def generate(self, mode, text):
        """(python text, None) or (None, (kind, message)): pyptx-codegen's
        work, by the program or (inproc) by pyptx_c.ptx_to_python."""
        if self.inproc:
            sugar = False if mode == "plain" else (True if mode == "sugar" else mode[6:])
            try:
                return self.pyptx_c.ptx_to_python(text, sugar=sugar), None
            except self.pyptx_c.PTXSyntaxError as e:
                return None, ("rejected", "%s:%s:%s: error: %s" % (
                    e.filename, e.lineno, e.offset, e.msg))
            except self.pyptx_c.PTXError as e:
                return None, ("rejected", str(e))
        flag = [] if mode == "plain" else ["--" + mode]
        r = self.run([self.prog("pyptx-codegen")] + flag + [self.path])
        if r is None or r.returncode not in (0, 1):
            return None, ("crash", "status %s" % (r and r.returncode))
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode == 1:
            return None, ("rejected", err) if DIAG.search(err) else \
                ("crash", "exit 1 without a diagnostic: %r" % err[:300])
        return r.stdout.decode("utf-8", "surrogateescape"), None

    def one_codegen(self, mode, text, toks):
        oracle = "codegen-" + mode.replace("=", "-")
        py, bad = self.generate(mode, text)
        if bad:
            return (bad[0], oracle, bad[1])
        rename = mode != "plain"
        if self.traced.get(py, rename + 1) <= rename:
            return None        # the same text traced already (a pass that did nothing)
        why = self.trace(py, toks, rename, text)
        self.traced[py] = rename
        return None if why is None else ("unfaithful", oracle, why)

    def trace(self, py, toks, rename, text):
        """None if the generated file traces back to toks, else why not."""
        return intrace.trace_back(py, text, toks, rename, TIMEOUT, self.cache)

    # -- diff --------------------------------------------------------------------

    def diff_report(self, seed_text, text):
        """pyptx-diff --json seed mutant, as data, or a failure (a tuple):
        in process where it can, else (and on sampled cases) the program,
        whose exit status must then say what the report says."""
        if self.inproc and not self.sampled:
            c = self.pyptx_c
            try:
                return json.loads(c.diff(c.parse(seed_text, name=self.seed_path),
                                         c.parse(text, name=self.path), format="json"))
            except (c.PTXSyntaxError, c.PTXError, ValueError) as e:
                return ("crash", "diff", "pyptx_c.diff: %r" % e)
        with open(self.seed_path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(seed_text)
        r = self.run([self.prog("pyptx-diff"), "--json", self.seed_path, self.path])
        if r is None or r.returncode not in (0, 1):
            return ("crash", "diff", "status %s" % (r and r.returncode))
        try:
            rep = json.loads(r.stdout)
        except ValueError:
            return ("crash", "diff", "no JSON report")
        if (r.returncode == 0) != bool(rep.get("same")):
            return ("unfaithful", "diff", "exit status %d but same=%s" % (r.returncode, rep.get("same")))
        return rep

    def diff(self, seed_text, mutant):
        if seed_text is None:
            return None
        rep = self.diff_report(seed_text, mutant.text)
        if isinstance(rep, tuple):
            return rep
        if mutant.change is None:
            return None
        minus, plus = [], []   # one entry per statement
        for u in rep.get("units", []):
            for h in u.get("hunks", []):
                for ln in h.get("lines", []):
                    if ln.get("op") == "-":
                        minus.append(ln.get("a_line"))
                    elif ln.get("op") == "+":
                        plus.append(ln.get("b_line"))
        if mutant.change[0] == "multi":
            # a diff minimal in statements has at most as many - and +
            # statements as the edited lines hold (fewer where an edit
            # respelled a statement alike, or where edits undo each
            # other); which lines, where copies of a neighbour may pair
            # either way, is not fixed, and a line of several statements
            # may then pair apart
            # (each line holds at least one: the lines' count settles most
            # cases without tokenizing either text)
            _, gone, made = mutant.change
            if ((len(minus) > len(gone) and len(minus) > statements_on(seed_text, gone)) or
                    (len(plus) > len(made) and len(plus) > statements_on(mutant.text, made))):
                return ("unfaithful", "diff", "edits of lines %s/%s: diff reports - %s + %s" % (
                    gone, made, sorted(minus), sorted(plus)))
            return None
        minus, plus = set(minus), set(plus)
        kind, a_line, b_line = mutant.change
        want_minus = {a_line} if a_line else set()
        want_plus = {b_line} if b_line else set()
        if kind == "edit" and rep.get("same"):
            return None      # the edit respelled a statement alike (8 -> 0x8)
        if kind != "edit" and (minus, plus) != (want_minus, want_plus):
            # an inserted or deleted copy of a neighbour may pair with
            # either: only the counts are fixed
            if (len(minus), len(plus)) == (len(want_minus), len(want_plus)):
                return None
        if (minus, plus) != (want_minus, want_plus):
            return ("unfaithful", "diff", "%s of line %s/%s: diff reports - %s + %s" % (
                kind, a_line, b_line, sorted(minus), sorted(plus)))
        return None
