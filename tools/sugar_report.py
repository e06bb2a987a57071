#!/usr/bin/env python3
"""Compare pyptx-codegen --sugar with pyptx 0.1.1's reference transpiler.

    tools/sugar_report.py [--python PY] [--jobs N] [--csv OUT] CODEGEN PATH...
    tools/sugar_report.py --lines [--python PY] [--jobs N] CODEGEN PATH...

For every .ptx file under PATH... (files or directories):

  ours: `CODEGEN --sugar --stats FILE` -> line count of the Python, the
        per-pass counts printed by --stats, and whether it passes
        tests/pyptx/harness.py's sugar-mode checks;
  ref:  `PY -m pyptx.codegen FILE --sugar` -> line count, and the idioms
        it used, counted in its text: `with ptx.loop(` (loops),
        `ptx.mbarrier.wait(` (waits), `for _i in range(` (rolled blocks),
        `with ptx.expr()` (expressions).  The reference is "correct" when
        every Kernel it defines traces to the input's entries, in order,
        token for token up to a consistent renaming (entry names may
        differ: the reference renames kernels).

With --lines, only lines and the file's shape, nothing traced
(lines_report: the figures of docs/performance.md).

Prints one line per file and a summary.  Targets checked (exit 1 if one
fails): ours passes; where both are correct, ours has no more kernel lines
(the kernel definitions, without our module contract) than the reference; ours has at least the reference's loops + waits on every
file where the reference is correct.
"""
import argparse
import ast
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "pyptx"))
import harness  # noqa: E402
import ptxtok  # noqa: E402

REF_RUNNER = r'''
import sys, json, importlib.util
res = {"kernels": []}
try:
    spec = importlib.util.spec_from_file_location("refmod", sys.argv[1])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from pyptx.kernel import Kernel
    for v in list(vars(mod).values()):
        if isinstance(v, Kernel):
            try:
                res["kernels"].append(v.ptx())
            except BaseException as e:
                res["kernels"].append(None)
                res.setdefault("errors", []).append("trace: %r" % (e,))
except BaseException as e:
    res["error"] = repr(e)
print(json.dumps(res))
'''

# Where our kernels end: the module part (plain: KERNELS; --sugar:
# UNSUPPORTED or _MODULE, where the module needs them) or the __main__ block.
OURS_AFTER_KERNELS = ("KERNELS =", "# Entries pyptx 0.1.1 cannot", "# The module in source order",
                      'if __name__ == "__main__":')

PASSES_TO_REF = {"loops": "loops", "wait": "waits", "repeat": "blocks", "expr": "exprs"}


def kernel_lines(text, ours, body_only=False):
    """Lines of the kernel definitions only: from the first @kernel / kernel
    def to the end of the last kernel (our helpers come before, the module
    part and __main__ after)."""
    lines = text.split("\n")
    start = None
    for i, l in enumerate(lines):
        if (l.startswith(("@kernel(", "@_named(")) and not body_only) or (
                re.match(r"def \w+\(\):", l) and not l.startswith("def _raw")):
            start = i
            break
    if start is None:
        return 0
    end = len(lines)
    if ours:
        for i in range(start, len(lines)):
            if lines[i].startswith(OURS_AFTER_KERNELS):
                end = i
                break
    while end > start and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return end - start


def ref_counts(text):
    return {"loops": text.count("with ptx.loop("),
            "waits": text.count("ptx.mbarrier.wait("),
            "blocks": len(re.findall(r"for _i in range\(", text)),
            "exprs": text.count("with ptx.expr()")}


def ref_correct(path, gen, py):
    src = open(path, encoding="utf-8", errors="replace").read()
    in_toks = ptxtok.tokenize(src)
    entries = ptxtok.find_entries(in_toks)
    r = subprocess.run([py, "-c", REF_RUNNER, gen], capture_output=True, timeout=300,
                       cwd=os.path.dirname(gen))
    try:
        res = json.loads(r.stdout.decode().strip().splitlines()[-1])
    except Exception:
        return False, "runner crashed"
    if "error" in res:
        return False, res["error"][:120]
    ks = [k for k in res["kernels"] if k is not None]
    if len(ks) != len(entries):
        return False, "%d kernels for %d entries" % (len(ks), len(entries))
    in_local = harness.local_names(in_toks)
    for e, k in zip(entries, ks):
        kt = ptxtok.tokenize(k)
        ke = ptxtok.find_entries(kt)
        if len(ke) != 1:
            return False, "traced text has %d entries" % len(ke)
        a = in_toks[e["start"]:e["end"]]
        b = kt[ke[0]["start"]:ke[0]["end"]]
        # the entry name (token 1) may be renamed by the reference
        d = harness.compare(a[2:], b[2:], True, in_local, harness.local_names(kt), ())
        if d is not None:
            return False, "entry %s differs at token %d (%s)" % (e["name"], d[0], d[1])
    return True, ""


def one(job):
    path, opts = job
    row = {"file": path}
    work = tempfile.mkdtemp(prefix="sugar-report-")
    try:
        p = subprocess.run([opts["codegen"], "--sugar", "--stats", path], capture_output=True,
                           timeout=300)
        row["ours_rc"] = p.returncode
        ours_text = p.stdout.decode("utf-8", "replace")
        row["ours_lines"] = ours_text.count("\n")
        row["ours_klines"] = kernel_lines(ours_text, True)
        row["ours_blines"] = kernel_lines(ours_text, True, True)
        stats = {}
        for line in p.stderr.decode("utf-8", "replace").splitlines():
            m = re.match(r"pass (\w+): (\d+)", line)
            if m:
                stats[m.group(1)] = int(m.group(2))
        row["ours"] = stats
        res = harness.check_file((path, {
            "codegen": opts["codegen"], "python": opts["python"], "mode": "sugar",
            "timeout": 300, "keep": None, "tmp": work}))
        ok, reasons = res[1], res[2]      # (path, ok, reasons, identical, ...)
        row["ours_ok"] = ok
        row["ours_why"] = (reasons[0].splitlines()[0] if reasons else "")[:160]
        r = subprocess.run([opts["python"], "-m", "pyptx.codegen", path, "--sugar"],
                           capture_output=True, timeout=300)
        text = r.stdout.decode("utf-8", "replace")
        row["ref_lines"] = text.count("\n") if r.returncode == 0 else None
        row["ref_klines"] = kernel_lines(text, False) if r.returncode == 0 else None
        row["ref_blines"] = kernel_lines(text, False, True) if r.returncode == 0 else None
        row["ref"] = ref_counts(text) if r.returncode == 0 else {}
        if r.returncode == 0:
            gen = os.path.join(work, "ref_generated.py")
            with open(gen, "w") as f:
                f.write(text)
            try:
                row["ref_ok"], row["ref_why"] = ref_correct(path, gen, opts["python"])
            except Exception as e:
                row["ref_ok"], row["ref_why"] = False, "check failed: %r" % (e,)
        else:
            row["ref_ok"], row["ref_why"] = False, "reference exited %d" % r.returncode
    except Exception as e:
        row["error"] = repr(e)
    finally:
        subprocess.run(["rm", "-rf", work])
    return row


# ---- --lines: the file's shape against the reference's (nothing traced) ----

_PYPTX_HEAD = re.compile(r"\.version \d+\.\d+\n\.target [\w]+\n\.address_size 64\n\n\.visible \Z")
_MODULE_DEFS = ("module_ptx", "_entry_text")
_MODULE_NAMES = ("KERNELS", "UNSUPPORTED", "_MODULE")


def _kind(node):
    """What a top-level statement of a generated file is."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return "imports"
    if isinstance(node, ast.FunctionDef):
        if node.name in _MODULE_DEFS:
            return "module"
        if node.decorator_list or re.match(r"_k\d+$", node.name):
            return "kernels"
        return "helpers"
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        names = [t.id for t in node.targets]
        if any(n in _MODULE_NAMES for n in names):
            return "module"
        if isinstance(node.value, ast.Call):   # plain: _k0 = kernel(...)(_k0)
            return "kernels"
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
        return "kernels"                        # plain: _k0.__name__ = "..."
    if isinstance(node, ast.If) and "__main__" in ast.dump(node.test):
        return "main"
    return "other"


def _needless_module(node):
    """_MODULE = (HEADER, kernel, "\n") where HEADER is pyptx's own: the
    module is that kernel's k.ptx(), so the file needs no _MODULE."""
    v = node.value
    if not isinstance(v, ast.Tuple) or len(v.elts) != 3:
        return False
    a, k, b = v.elts
    return (isinstance(a, ast.Constant) and isinstance(a.value, str) and _PYPTX_HEAD.match(a.value)
            and isinstance(k, ast.Name) and isinstance(b, ast.Constant) and b.value == "\n")


def shape(text):
    """Non-blank lines of a generated file by kind (imports, kernels,
    helpers, module, main, other: comments count with the statement after
    them) and what it holds that it does not need: `issues`."""
    tree = ast.parse(text)
    lines = text.split("\n")
    spans = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        spans.append((first, node.end_lineno, _kind(node), node))
    count = dict.fromkeys(("imports", "kernels", "helpers", "module", "main", "other"), 0)
    j = 0
    for n, line in enumerate(lines, 1):
        while j + 1 < len(spans) and spans[j][1] < n:
            j += 1
        if line.strip() and spans:
            count[spans[j][2]] += 1
    used = {x.id for x in ast.walk(tree) if isinstance(x, ast.Name)}
    issues = []
    for _, _, kind, node in spans:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            issues += ["unused import " + (a.asname or a.name) for a in node.names
                       if (a.asname or a.name).split(".")[0] not in used]
        elif kind == "helpers" and node.name not in used:
            issues.append("%s defined, never called" % node.name)
        elif kind == "module" and isinstance(node, ast.Assign):
            name = node.targets[0].id
            if name == "KERNELS":
                issues.append("KERNELS (the kernels are the file's Kernel objects)")
            elif name == "_MODULE" and _needless_module(node):
                issues.append("_MODULE where the module is its kernel's k.ptx()")
    if not any(k == "main" for _, _, k, _ in spans):
        issues.append("no __main__ block")
    count["issues"] = issues
    count["lines"] = text.count("\n")
    return count


def _ref(job):
    path, opts = job
    r = subprocess.run([opts["python"], "-m", "pyptx.codegen", path, "--sugar"],
                       capture_output=True, timeout=300)
    o = subprocess.run([opts["codegen"], "--sugar", path], capture_output=True, timeout=300)
    return path, r.returncode, r.stdout.decode("utf-8", "replace"), o.returncode, \
        o.stdout.decode("utf-8", "replace")


def lines_report(files, opts, jobs):
    """--lines: per file, our --sugar file against the reference's, by
    lines.  Targets (exit 1 if one fails): our file holds nothing it does
    not need (shape: issues); and where our kernels are no longer than the
    reference's, our file is no longer than the reference's but for what
    the reference lacks (non-blank lines, not counting our __main__ block,
    the helpers our kernels call and the module text pyptx's output drops:
    _MODULE, UNSUPPORTED, module_ptx)."""
    with multiprocessing.Pool(jobs) as pool:
        rows = pool.map(_ref, [(f, opts) for f in files])
    t = dict.fromkeys(("ours", "ref", "longer", "klonger", "reffail", "bad"), 0)
    print("%-64s %6s %6s %6s %6s" % ("file", "ours", "ref", "oursK", "refK"))
    for path, rrc, rtext, orc, otext in rows:
        o = shape(otext) if orc == 0 else {"issues": ["codegen exited %d" % orc], "lines": 0}
        try:
            r = shape(rtext) if rrc == 0 else None
            rwhy = "reference exited %d" % rrc
        except SyntaxError as e:
            r, rwhy = None, "reference's file is not Python (line %s)" % e.lineno
        rl = rtext.count("\n") if rrc == 0 else 0
        t["ours"] += o["lines"]
        t["ref"] += rl
        t["longer"] += o["lines"] > rl
        why = list(o["issues"])
        if r is None or not r["kernels"]:
            t["reffail"] += 1
            note = rwhy if r is None else "reference wrote no kernel"
        elif o.get("kernels", 0) > r["kernels"]:
            t["klonger"] += 1
            note = "kernels longer than the reference's"
        else:
            note = ""
            mine = sum(o[k] for k in ("imports", "kernels", "other"))
            theirs = sum(r[k] for k in ("imports", "kernels", "helpers", "other"))
            if mine > theirs:
                why.append("%d lines of imports and kernels, the reference %d" % (mine, theirs))
        t["bad"] += bool(why)
        print("%-64s %6d %6d %6s %6s  %s" % (path[-64:], o["lines"], rl, o.get("kernels", "-"),
                                            r["kernels"] if r else "-",
                                            "; ".join(why + ([note] if note else []))))
    print()
    print("files: %d; ours longer than pyptx's --sugar: %d; lines: ours %d, pyptx's %d"
          % (len(rows), t["longer"], t["ours"], t["ref"]))
    print("reference failed or wrote no kernel: %d files; our kernels longer: %d files"
          % (t["reffail"], t["klonger"]))
    print("%d passed, %d failed" % (len(rows) - t["bad"], t["bad"]))
    return 1 if t["bad"] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("codegen")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--csv", help="also write a CSV table")
    ap.add_argument("--json", help="also write the rows as JSON")
    ap.add_argument("--lines", action="store_true",
                    help="only the files' lines and shape against the reference (fast: "
                         "nothing is traced; see lines_report)")
    a = ap.parse_args()
    files = harness.collect(a.paths)
    opts = {"codegen": os.path.abspath(a.codegen), "python": a.python}
    if a.lines:
        return lines_report(files, opts, a.jobs)
    with multiprocessing.Pool(a.jobs) as pool:
        rows = list(pool.imap(one, [(f, opts) for f in files]))
    bad = []
    tot = {"ours": 0, "ref": 0, "oursb": 0, "refb": 0, "files_both": 0, "ours_pass": 0,
           "ref_ok": 0, "body_more": 0}
    print("%-60s %6s %6s %6s %6s %4s %4s  %s" % ("file", "ours", "ref", "oursK", "refK", "okO", "okR",
                                          "loops o/r  waits o/r  rolled o/r  expr o/r"))
    for r in rows:
        if "error" in r:
            print("%-60s ERROR %s" % (r["file"][-60:], r["error"]))
            bad.append((r["file"], "error"))
            continue
        o, f = r["ours"], r.get("ref") or {}
        print("%-60s %6s %6s %6s %6s %4s %4s  %3d/%-3d    %3d/%-3d   %3d/%-3d     %3d/%-3d%s" % (
            r["file"][-60:], r["ours_lines"], r["ref_lines"], r["ours_klines"], r["ref_klines"],
            "yes" if r["ours_ok"] else "NO",
            "yes" if r["ref_ok"] else "no", o.get("loops", 0), f.get("loops", 0),
            o.get("wait", 0), f.get("waits", 0), o.get("repeat", 0), f.get("blocks", 0),
            o.get("expr", 0), f.get("exprs", 0),
            ("   ours: " + r["ours_why"]) if not r["ours_ok"] else ""))
        tot["ours_pass"] += r["ours_ok"]
        tot["ref_ok"] += bool(r["ref_ok"])
        if not r["ours_ok"]:
            bad.append((r["file"], "ours fails the harness"))
        if r["ours_ok"] and r["ref_ok"]:
            tot["files_both"] += 1
            tot["oursb"] += r["ours_blines"]
            tot["refb"] += r["ref_blines"]
            tot["body_more"] += r["ours_blines"] > r["ref_blines"]
            tot["ours"] += r["ours_klines"]
            tot["ref"] += r["ref_klines"]
            if r["ours_klines"] > r["ref_klines"]:
                bad.append((r["file"], "more kernel lines than the reference (%d > %d)"
                            % (r["ours_klines"], r["ref_klines"])))
        if r["ref_ok"] and (o.get("loops", 0) + o.get("wait", 0)
                            < f.get("loops", 0) + f.get("waits", 0)):
            bad.append((r["file"], "fewer loops+waits than the reference"))
    print()
    print("files: %d; ours pass the harness: %d; reference correct: %d"
          % (len(rows), tot["ours_pass"], tot["ref_ok"]))
    print("where both are correct (%d files): kernel lines: ours %d, reference %d"
          % (tot["files_both"], tot["ours"], tot["ref"]))
    print("  kernel bodies only (from `def`, without the @kernel(...) header): ours %d, "
          "reference %d; files where ours is longer: %d" % (tot["oursb"], tot["refb"], tot["body_more"]))
    for f, why in bad:
        print("TARGET MISSED %s: %s" % (f, why))
    if a.csv:
        import csv
        with open(a.csv, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["file", "ours_lines", "ref_lines", "ours_klines", "ref_klines", "ours_ok", "ref_ok", "ref_why"]
                       + ["ours_" + p for p in PASSES_TO_REF] + ["ref_" + v for v in PASSES_TO_REF.values()])
            for r in rows:
                if "error" in r:
                    continue
                w.writerow([r["file"], r["ours_lines"], r["ref_lines"], r["ours_klines"], r["ref_klines"], r["ours_ok"], r["ref_ok"],
                            r.get("ref_why", "")]
                           + [r["ours"].get(p, 0) for p in PASSES_TO_REF]
                           + [(r.get("ref") or {}).get(v, 0) for v in PASSES_TO_REF.values()])
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
