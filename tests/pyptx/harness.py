#!/usr/bin/env python3
"""Round-trip harness for pyptx-codegen (PTX -> pyptx 0.1.1 Python).

    harness.py [--python PY] [--mode plain|sugar] [--jobs N] [--timeout S]
               [--keep DIR] [--quiet] [--no-debug FILTER --diff DIFF]
               CODEGEN PATH...

For every .ptx file under PATH... (files or directories, searched
recursively) the harness

  0. runs `CODEGEN FILE` (mode plain) or `CODEGEN --sugar FILE` (mode sugar)
     and stores its stdout as a Python file;
  1. imports that file under PY (a python with pyptx 0.1.1) in a subprocess
     with a timeout: it must compile and execute; its kernels are the
     pyptx Kernels it defines, by PTX entry name (_verify.Generated; see
     src/codegen/DESIGN.md, "Contract of the generated file");
  2. for every .entry definition of the input, the kernel of that name's
     .ptx() must contain an .entry of the same name whose token sequence
     (from `.entry` to the closing `}`) equals the input entry's, or the
     file's UNSUPPORTED must say truly why pyptx cannot express it;
  3. `PY GENERATED.py` must exit 0 and print a module whose token sequence
     equals the whole input file's (and module_ptx(), where the file
     defines it, must return that very text).

Tokens ignore whitespace and comments (see ptxtok.py).  In sugar mode checks
2 and 3 accept a consistent renaming (a bijection built while walking both
token streams) of labels, parameters, registers and other function-local
names; entry names, opcodes, directives, numbers and global names must stay
equal.  Byte-identical modules (stdout == input bytes) are counted and
reported as a figure, not a gate.

With --no-debug FILTER --diff DIFF the harness runs `CODEGEN --no-debug`,
and the checks above compare against FILTER's output (tools/ptx_nodebug:
the input without its debug data, the text the codegen translates), and

  4. `DIFF --ignore-debug INPUT PRINTED` (with --ignore-names in sugar
     mode) must exit 0: the printed module is the input up to what
     pyptx-diff ignores as debug data;
  5. the printed module must hold no .loc, .file, @@DWARF or .debug_*
     token, no label that no other token names, and every branch's
     target label (checks of their own, not the filter's rule).

A file passes when all checks pass.  The last line printed is exactly
`N passed, N failed`; the exit status is 0 only if nothing failed.  There is
deliberately no skip list.
"""
import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxtok  # noqa: E402

# Runs under --python.  argv: GENERATED.py, _verify.py.  Prints one JSON
# object.  The file is read by _verify.Generated, the rule every checker
# shares: kernels are the pyptx Kernels it defines, by PTX entry name.
RUNNER = r"""
import sys, json, traceback, importlib.util
res = {}
try:
    import pyptx
    res["pyptx_version"] = getattr(pyptx, "__version__", "?")
except Exception:
    res["error"] = "cannot import pyptx:\n" + traceback.format_exc(limit=3)
    print(json.dumps(res)); sys.exit(0)
spec = importlib.util.spec_from_file_location("pyptx_c_verify_rules", sys.argv[2])
rules = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rules)
path = sys.argv[1]
try:
    src = open(path, encoding="utf-8").read()
    compile(src, path, "exec")
except SyntaxError:
    res["error"] = "does not compile:\n" + traceback.format_exc(limit=0)
    print(json.dumps(res)); sys.exit(0)
try:
    g = rules.Generated(src, path)
except BaseException:
    res["error"] = "import raised:\n" + traceback.format_exc(limit=-4)
    print(json.dumps(res)); sys.exit(0)
kern = {}
for name, k in g.kernels.items():
    try:
        kern[str(name)] = {"ptx": k.ptx()}
    except BaseException:
        kern[str(name)] = {"error": "tracing raised:\n" + traceback.format_exc(limit=-4)}
res["kernels"] = kern
res["unsupported"] = {str(k): str(v) for k, v in g.unsupported.items()}
if callable(g.ns.get("module_ptx")):
    try:
        t = g.module()
        if not isinstance(t, str):
            raise TypeError("module_ptx() returned %s, not str" % type(t).__name__)
        res["module"] = t
    except BaseException:
        res["module_error"] = "module_ptx() raised:\n" + traceback.format_exc(limit=-4)
print(json.dumps(res))
"""

# The comparison rules, shared with pyptx-codegen --verify (ptxtok.rules:
# python/pyptx_c/_verify.py).
local_names = ptxtok.rules.local_names
compare = ptxtok.rules.compare
_fmt_diff = ptxtok.rules.fmt_diff
verify_unsupported = ptxtok.rules.verify_unsupported


def _tail(s, n=1500):
    s = s or ""
    return s if len(s) <= n else "..." + s[-n:]


def jit_compare(opts, path, module, work):
    """JIT the input and the printed module with the CUDA driver (tools/jit_check)
    and compare the cubins' code sections.  Returns (verdict, detail) with
    verdict one of identical, different, rejected, skipped."""
    mod = os.path.join(work, "module.ptx")
    with open(mod, "wb") as f:
        f.write(module)
    cmd = [opts["jit"]]
    if opts["mode"] == "sugar":  # labels/params renamed: pair kernels by order
        cmd += ["--names-may-differ", "--by-order"]
    r = subprocess.run(cmd + [path, mod], capture_output=True, timeout=opts["timeout"])
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    if r.returncode == 0:
        return "identical", ""
    if r.returncode == 77:
        return "skipped", out.strip()
    if r.returncode == 2 and "rejected" in out:
        return "rejected", ""
    return "different", _tail(out, 1500)


def is_debug_token(t):
    return t in (".loc", ".file") or t.startswith("@@DWARF") or t.startswith(".debug_")


def check_no_debug(opts, path, printed, toks, work):
    """Checks 4 and 5 of --no-debug: reasons they fail."""
    reasons = []
    mod = os.path.join(work, "printed.ptx")
    with open(mod, "wb") as f:
        f.write(printed)
    cmd = [opts["diff"], "--ignore-debug"] + (["--ignore-names"] if opts["mode"] == "sugar" else [])
    r = subprocess.run(cmd + [path, mod], capture_output=True, timeout=opts["timeout"])
    if r.returncode != 0:
        reasons.append("(4) %s exited %d: %s" % (" ".join(cmd[1:]), r.returncode,
                       _tail((r.stdout + r.stderr).decode("utf-8", "replace"), 1500)))
    left = [t for t in toks if is_debug_token(t[0])]
    if left:
        reasons.append("(5) %d debug tokens left, the first %r on printed line %d"
                       % (len(left), left[0][0], left[0][1]))
    # labels, seen from the tokens alone (not front/debug.c's rule): none
    # that nothing names is left, and every branch target is still there
    text = [t[0] for t in toks]
    defined = {text[i] for i in range(1, len(text) - 1)
               if text[i + 1] == ":" and text[i - 1] in (";", "{", "}", ":")}
    count = {}
    for t in text:
        count[t] = count.get(t, 0) + 1
    unnamed = sorted(n for n in defined if count[n] == 1)
    if unnamed:
        reasons.append("(5) labels that nothing names are left: %s" % ", ".join(unnamed[:5]))
    lost = sorted({text[i + 1] for i in range(len(text) - 1)
                   if text[i].split(".")[0] == "bra" and text[i + 1] not in defined})
    if lost:
        reasons.append("(5) branch targets without their label: %s" % ", ".join(lost[:5]))
    return reasons


def check_file(job):
    """Run all checks on one PTX file; return (path, ok, reasons, byte_identical)."""
    path, opts = job
    reasons = []
    notes = []
    jit_result = [None]
    ret = _check_file(path, opts, reasons, notes, jit_result)
    return ret + (jit_result[0],)


def _check_file(path, opts, reasons, notes, jit_result):
    work = tempfile.mkdtemp(prefix="pyptx-harness-", dir=opts["tmp"])
    try:
        with open(path, "rb") as f:
            raw = f.read()
        if opts.get("no_debug"):    # the text --no-debug translates
            f = subprocess.run([opts.get("no_debug"), path], capture_output=True,
                               timeout=opts["timeout"])
            if f.returncode != 0:
                return path, False, ["%s exited with status %d: %s" % (
                    opts.get("no_debug"), f.returncode, _tail(f.stderr.decode("utf-8", "replace"), 600))], False, notes
            raw = f.stdout
        src = raw.decode("utf-8", errors="replace")
        in_toks = ptxtok.tokenize(src)

        cmd = [opts["codegen"]] + (["--sugar"] if opts["mode"] == "sugar" else []) + \
            (["--no-debug"] if opts.get("no_debug") else []) + [path]
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=opts["timeout"])
        except subprocess.TimeoutExpired:
            return path, False, ["codegen timed out after %ss" % opts["timeout"]], False, notes
        except OSError as e:
            return path, False, ["cannot run codegen: %s" % e], False, notes
        if p.returncode != 0:
            return path, False, ["codegen exited with status %d: %s" % (
                p.returncode, _tail(p.stderr.decode("utf-8", "replace"), 600))], False, notes
        gen = os.path.join(work, "k_generated.py")
        with open(gen, "wb") as f:
            f.write(p.stdout)
        if opts["keep"]:
            rel = os.path.basename(path)[:-4] if path.endswith(".ptx") else os.path.basename(path)
            shutil.copy(gen, os.path.join(opts["keep"], rel + (".sugar" if opts["mode"] == "sugar" else "") + ".py"))

        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONWARNINGS"] = "ignore"
        # (1) import + trace in a subprocess
        try:
            r = subprocess.run([opts["python"], "-c", RUNNER, gen, ptxtok.PATH], capture_output=True,
                               timeout=opts["timeout"], cwd=work, env=env)
        except subprocess.TimeoutExpired:
            return path, False, ["(1) importing/tracing the generated file timed out after %ss"
                                 % opts["timeout"]], False, notes
        out = r.stdout.decode("utf-8", "replace").strip().splitlines()
        try:
            res = json.loads(out[-1])
        except (IndexError, ValueError):
            return path, False, ["(1) runner crashed (status %d): %s" % (
                r.returncode, _tail(r.stderr.decode("utf-8", "replace")))], False, notes
        if res.get("pyptx_version") not in (None, "0.1.1"):
            reasons.append("(1) %s has pyptx %s, not 0.1.1" % (opts["python"], res["pyptx_version"]))
        if "error" in res:
            return path, False, reasons + ["(1) " + res["error"].rstrip()], False, notes

        rename = opts["mode"] == "sugar"
        entries = ptxtok.find_entries(in_toks)
        fixed = {e["name"] for e in entries}
        in_local = local_names(in_toks) if rename else set()

        # (2) every input entry against KERNELS[name]
        kernels = res.get("kernels", {})
        unsup = res.get("unsupported", {})
        for e in entries:
            name = e["name"]
            a = in_toks[e["start"]:e["end"]]
            k = kernels.get(name)
            if k is None and name in unsup:
                bad = verify_unsupported(a, unsup[name])
                if bad is None:
                    notes.append("entry %s: %s" % (name, unsup[name]))
                else:
                    reasons.append("(2) entry %s: UNSUPPORTED says %r, but %s"
                                   % (name, unsup[name], bad))
                continue
            if k is None:
                reasons.append("(2) entry %s (line %d): no kernel %r" % (name, in_toks[e["start"]][1], name))
                continue
            if "error" in k:
                reasons.append("(2) entry %s: %s" % (name, k["error"].rstrip()))
                continue
            kt = ptxtok.tokenize(k["ptx"])
            ke = [x for x in ptxtok.find_entries(kt) if x["name"] == name]
            if len(ke) != 1:
                reasons.append("(2) entry %s: kernel %r's ptx() has %d entries named %r"
                               % (name, name, len(ke), name))
                continue
            b = kt[ke[0]["start"]:ke[0]["end"]]
            d = compare(a, b, rename, in_local, local_names(kt) if rename else (), fixed)
            if d is not None:
                reasons.append("(2) entry %s differs from kernel %r's ptx(): %s"
                               % (name, name, _fmt_diff(a, b, d, "traced")))
        for name in list(kernels) + list(unsup):
            if name not in fixed:
                reasons.append("(2) kernel %r matches no .entry of the input" % name)
        if "module_error" in res:
            reasons.append("(3) " + res["module_error"].rstrip())

        # (3) python GENERATED.py prints the module
        identical = False
        try:
            s = subprocess.run([opts["python"], gen], capture_output=True,
                               timeout=opts["timeout"], cwd=work, env=env)
        except subprocess.TimeoutExpired:
            reasons.append("(3) running the generated file as a script timed out")
            return path, False, reasons, False, notes
        if s.returncode != 0:
            reasons.append("(3) running the generated file as a script exited %d: %s"
                           % (s.returncode, _tail(s.stderr.decode("utf-8", "replace"))))
        else:
            identical = s.stdout == raw
            text = s.stdout.decode("utf-8", "replace")
            if "module" in res and res["module"].encode("utf-8", "surrogateescape") != s.stdout:
                reasons.append("(3) module_ptx() is not what the file prints as a script")
            if opts.get("jit"):
                notes_jit = jit_compare(opts, path, s.stdout, work)
                if notes_jit[0] == "different":
                    reasons.append("(jit) " + notes_jit[1])
                jit_result[0] = notes_jit[0]
            mt = ptxtok.tokenize(text)
            d = compare(in_toks, mt, rename, in_local,
                        local_names(mt) if rename else (), fixed)
            if d is not None:
                reasons.append("(3) printed module differs from the input: %s"
                               % _fmt_diff(in_toks, mt, d, "printed"))
            if opts.get("no_debug"):
                reasons += check_no_debug(opts, path, s.stdout, mt, work)
        return path, not reasons, reasons, identical, notes
    except Exception as e:  # harness bug: report, do not hide
        return path, False, ["harness error: %r" % (e,)], False, notes
    finally:
        shutil.rmtree(work, ignore_errors=True)


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    if n.endswith(".ptx"):
                        files.append(os.path.join(root, n))
        elif os.path.isfile(p):
            files.append(p)
        else:
            sys.stderr.write("harness: no such file or directory: %s\n" % p)
            sys.exit(2)
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("codegen", help="path of the pyptx-codegen binary")
    ap.add_argument("paths", nargs="+", help="PTX files or directories")
    ap.add_argument("--python", default=sys.executable,
                    help="python with pyptx 0.1.1 installed (default: this python)")
    ap.add_argument("--mode", choices=("plain", "sugar"), default="plain")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds allowed to each subprocess (default 120)")
    ap.add_argument("--keep", metavar="DIR", help="copy the generated files into DIR")
    ap.add_argument("--quiet", "-q", action="store_true", help="do not list passing files")
    ap.add_argument("--jit", metavar="JIT_CHECK",
                    help="also JIT the input and the printed module with the CUDA driver "
                         "(path of build/jit_check) and compare the cubins' code sections; "
                         "exit 77 when no driver is present")
    ap.add_argument("--no-debug", metavar="FILTER",
                    help="run the codegen with --no-debug, checking against FILTER's output "
                         "(path of build/ptx_nodebug) and with pyptx-diff --ignore-debug")
    ap.add_argument("--diff", metavar="DIFF", help="path of pyptx-diff (for --no-debug)")
    args = ap.parse_args(argv)
    if bool(args.no_debug) != bool(args.diff):
        ap.error("--no-debug and --diff go together")

    files = collect(args.paths)
    if not files:
        sys.stderr.write("harness: no .ptx files found\n")
        return 2
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="pyptx-harness-")
    # the generated files run from a directory of their own: a relative
    # interpreter path would name nothing there
    python = os.path.abspath(args.python) if os.sep in args.python else args.python
    opts = {"codegen": os.path.abspath(args.codegen), "python": python,
            "mode": args.mode, "timeout": args.timeout, "keep": args.keep, "tmp": tmp,
            "jit": os.path.abspath(args.jit) if args.jit else None,
            "no_debug": os.path.abspath(args.no_debug) if args.no_debug else None,
            "diff": os.path.abspath(args.diff) if args.diff else None}
    jit_counts = {}
    jobs = [(f, opts) for f in files]
    passed = failed = identical = 0
    inexpressible = inexpressible_files = 0
    try:
        if args.jobs > 1 and len(files) > 1:
            pool = multiprocessing.Pool(min(args.jobs, len(files)))
            results = pool.imap(check_file, jobs)
        else:
            pool = None
            results = map(check_file, jobs)
        for path, ok, reasons, ident, notes, jit in results:
            if jit:
                jit_counts[jit] = jit_counts.get(jit, 0) + 1
            identical += bool(ident)
            if notes:
                inexpressible_files += 1
                inexpressible += len(notes)
            if ok:
                passed += 1
                if not args.quiet or notes:
                    print("PASS %s%s" % (path, " (byte-identical)" if ident else ""))
                for n in notes:
                    print("  not expressible in pyptx 0.1.1: " + n)
            else:
                failed += 1
                print("FAIL %s" % path)
                for r in reasons:
                    print("  " + r.replace("\n", "\n    "))
            sys.stdout.flush()
        if pool is not None:
            pool.close()
            pool.join()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("byte-identical modules: %d of %d (%s mode)" % (identical, len(files), args.mode))
    print("pyptx cannot express: %d entries in %d files (listed above)"
          % (inexpressible, inexpressible_files))
    if args.jit:
        if jit_counts.get("skipped") and len(jit_counts) == 1:
            print("jit: skipped: no CUDA driver or GPU")
        else:
            print("jit: %d identical, %d different, %d rejected by the driver"
                  % (jit_counts.get("identical", 0), jit_counts.get("different", 0),
                     jit_counts.get("rejected", 0)))
    print("%d passed, %d failed" % (passed, failed))
    if failed == 0 and args.jit and jit_counts.get("skipped") and len(jit_counts) == 1:
        return 77
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
