#!/usr/bin/env python3
"""Round-trip harness for pyptx-codegen (PTX -> pyptx 0.1.1 Python).

    harness.py [--python PY] [--mode plain|sugar] [--jobs N] [--timeout S]
               [--keep DIR] [--quiet] CODEGEN PATH...

For every .ptx file under PATH... (files or directories, searched
recursively) the harness

  0. runs `CODEGEN FILE` (mode plain) or `CODEGEN --sugar FILE` (mode sugar)
     and stores its stdout as a Python file;
  1. imports that file under PY (a python with pyptx 0.1.1) in a subprocess
     with a timeout: it must compile, execute, and define KERNELS (a dict
     PTX entry name -> pyptx Kernel) and module_ptx() (see
     src/codegen/DESIGN.md, "Contract of the generated file");
  2. for every .entry definition of the input, KERNELS[name].ptx() must
     contain an .entry of the same name whose token sequence (from `.entry`
     to the closing `}`) equals the input entry's;
  3. `PY GENERATED.py` must exit 0 and print a module whose token sequence
     equals the whole input file's.

Tokens ignore whitespace and comments (see ptxtok.py).  In sugar mode checks
2 and 3 accept a consistent renaming (a bijection built while walking both
token streams) of labels, parameters, registers and other function-local
names; entry names, opcodes, directives, numbers and global names must stay
equal.  Byte-identical modules (stdout == input bytes) are counted and
reported as a figure, not a gate.

A file passes when all checks pass.  The last line printed is exactly
`N passed, N failed`; the exit status is 0 only if nothing failed.  There is
deliberately no skip list.
"""
import argparse
import functools
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxtok  # noqa: E402

# Runs under --python.  argv: GENERATED.py.  Prints one JSON object.
RUNNER = r'''
import sys, json, traceback, importlib.util
res = {}
try:
    import pyptx
    res["pyptx_version"] = getattr(pyptx, "__version__", "?")
except Exception:
    res["error"] = "cannot import pyptx:\n" + traceback.format_exc(limit=3)
    print(json.dumps(res)); sys.exit(0)
path = sys.argv[1]
try:
    src = open(path, encoding="utf-8").read()
    code = compile(src, path, "exec")
except SyntaxError:
    res["error"] = "does not compile:\n" + traceback.format_exc(limit=0)
    print(json.dumps(res)); sys.exit(0)
spec = importlib.util.spec_from_file_location("pyptx_generated", path)
mod = importlib.util.module_from_spec(spec)
sys.modules["pyptx_generated"] = mod
try:
    exec(code, mod.__dict__)
except BaseException:
    res["error"] = "import raised:\n" + traceback.format_exc(limit=-4)
    print(json.dumps(res)); sys.exit(0)
K = getattr(mod, "KERNELS", None)
if not isinstance(K, dict):
    res["error"] = "generated module defines no KERNELS dict"
    print(json.dumps(res)); sys.exit(0)
from pyptx.kernel import Kernel
kern = {}
for name, k in K.items():
    if not isinstance(k, Kernel):
        kern[str(name)] = {"error": "KERNELS[%r] is not a pyptx Kernel but %s" % (name, type(k).__name__)}
        continue
    try:
        kern[str(name)] = {"ptx": k.ptx()}
    except BaseException:
        kern[str(name)] = {"error": "tracing raised:\n" + traceback.format_exc(limit=-4)}
res["kernels"] = kern
U = getattr(mod, "UNSUPPORTED", {})
if isinstance(U, dict):
    res["unsupported"] = {str(k): str(v) for k, v in U.items()}
mp = getattr(mod, "module_ptx", None)
if not callable(mp):
    res["module_error"] = "generated module defines no module_ptx()"
else:
    try:
        t = mp()
        if not isinstance(t, str):
            raise TypeError("module_ptx() returned %s, not str" % type(t).__name__)
        res["module"] = t
    except BaseException:
        res["module_error"] = "module_ptx() raised:\n" + traceback.format_exc(limit=-4)
print(json.dumps(res))
'''

# Non-dotted special registers: never renamed in sugar mode.
_SPECIAL_RE = re.compile(
    r"%(laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64|clock_hi|"
    r"globaltimer|globaltimer_lo|globaltimer_hi|lanemask_(eq|le|lt|ge|gt)|"
    r"pm[0-7](_64)?|envreg\d+|total_smem_size|aggr_smem_size|"
    r"dynamic_smem_size|current_graph_exec|cluster_ctarank|cluster_nctarank|"
    r"is_explicit_cluster|reserved_smem_offset_\w+|tid|ntid|ctaid|nctaid|"
    r"clusterid|nclusterid|cluster_ctaid|cluster_nctaid)$")
_WORD_RE = re.compile(r"[A-Za-z_$%][\w$]*$")
_DECL_DIRS = {".reg", ".shared", ".local", ".param", ".const", ".global",
              ".shared::cta", ".shared::cluster"}


@functools.lru_cache(maxsize=1 << 16)   # tokens repeat: registers, opcodes
def _is_word(t):
    return bool(_WORD_RE.match(t)) and t != "_"


@functools.lru_cache(maxsize=1 << 16)
def _is_local_reg(t):
    return t.startswith("%") and _is_word(t) and not _SPECIAL_RE.match(t)


def local_names(toks):
    """Names a sugar-mode generator may rename: labels, parameters,
    registers and names declared inside function bodies."""
    names = set()
    texts = [t for t, _ in toks]
    n = len(texts)
    depth = 0
    i = 0
    while i < n:
        t = texts[i]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif _is_local_reg(t):
            names.add(t)
        elif (_is_word(t) and i + 1 < n and texts[i + 1] == ":"
              and (i == 0 or texts[i - 1] in (";", "{", "}", ":"))):
            names.add(t)                         # label definition
        elif t in (".entry", ".func"):
            # parameter lists: (...) [name] (...)
            j = i + 1
            while j < n and texts[j] not in ("{", ";"):
                if texts[j] == "(":
                    k = j + 1
                    last = None
                    bdepth = 0
                    while k < n and texts[k] != ")":
                        x = texts[k]
                        if x == "[":
                            bdepth += 1
                        elif x == "]":
                            bdepth -= 1
                        elif x == "," and bdepth == 0:
                            if last:
                                names.add(last)
                            last = None
                        elif bdepth == 0 and _is_word(x):
                            last = x
                        k += 1
                    if last:
                        names.add(last)
                    j = k
                j += 1
            i = j
            continue
        elif depth > 0 and t in _DECL_DIRS and (i == 0 or texts[i - 1] in (";", "{", "}")):
            # declaration statement inside a body: first word of each declarator
            j = i + 1
            want = True
            bdepth = 0
            while j < n and texts[j] != ";":
                x = texts[j]
                if x in ("[", "<", "{", "("):
                    bdepth += 1
                elif x in ("]", ">", "}", ")"):
                    bdepth -= 1
                elif x == "," and bdepth == 0:
                    want = True
                elif x == "=":
                    want = False
                elif want and bdepth == 0 and _is_word(x):
                    names.add(x)
                    want = False
                j += 1
            i = j
            continue
        i += 1
    return names


def compare(a, b, rename=False, a_local=(), b_local=(), fixed=()):
    """Compare token lists a (input) and b (output).

    Returns None when equal, else (index, message).  With rename=True the
    names in a_local (declared by the input) and b_local (by the output)
    may be renamed, under one bijection built while walking both lists:
    every occurrence of a name, wherever it stands (a debug section, a
    string of raw text), must map the same way.  So a name the output
    renamed in its declaration but left spelled the old way elsewhere is a
    reference that resolves to nothing, and fails.  Names in `fixed` and
    all other tokens must be equal."""
    fwd, bwd = {}, {}
    n = min(len(a), len(b))
    for i in range(n):
        x, y = a[i][0], b[i][0]
        if (rename and (x in a_local or y in b_local)
                and x not in fixed and y not in fixed):
            fx, by = fwd.get(x), bwd.get(y)
            if fx is None and by is None:
                if x == y or (x in a_local and y in b_local):
                    fwd[x], bwd[y] = y, x
                    continue
                return i, "token differs"
            if fx == y and by == x:
                continue
            why = ("inconsistent renaming: %r was mapped to %r" % (x, fx)
                   if fx is not None and fx != y else
                   "inconsistent renaming: %r is already the image of %r" % (y, by))
            return i, why
        if x != y:
            return i, "token differs"
    if len(a) != len(b):
        return n, "input has more tokens" if len(a) > len(b) else "output has more tokens"
    return None


def _fmt_diff(a, b, where, what_out):
    i, why = where
    ta = "line %d: %r" % (a[i][1], a[i][0]) if i < len(a) else "end of input"
    tb = "line %d: %r" % (b[i][1], b[i][0]) if i < len(b) else "end of output"
    ctx_a = " ".join(t for t, _ in a[max(0, i - 3):i + 3])
    ctx_b = " ".join(t for t, _ in b[max(0, i - 3):i + 3])
    return ("first difference at token %d (%s): input %s vs %s %s\n"
            "      input : ... %s ...\n      output: ... %s ..."
            % (i, why, ta, what_out, tb, ctx_a, ctx_b))


# pyptx.types scalar types: the only parameter types raw_params can write.
_PYPTX_TYPES = {"b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
                "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2",
                "tf32", "f32", "f64", "e4m3", "e5m2", "pred"}


def verify_unsupported(etoks, reason):
    """Is `reason` (from the generated UNSUPPORTED dict) true of the input
    entry tokens etoks (from `.entry` to `}`)?  Returns None when verified,
    else why not.  Known reasons: no parameter list; a parameter that is not
    `.param [.align N] .<pyptx scalar type> ...`."""
    texts = [t for t, _ in etoks]
    if reason.startswith("no parameter list"):
        return None if texts[2:3] != ["("] else "the entry has a parameter list"
    m = re.match(r'parameter "([^"]+)"', reason)
    if not m:
        return "reason not recognised by the harness"
    if texts[2:3] != ["("]:
        return "the entry has no parameter list"
    params, cur, depth = [], [], 0
    for x in texts[3:]:
        if x == ")" and depth == 0:
            break
        depth += x in "([{"
        depth -= x in ")]}"
        if x == "," and depth == 0:
            params.append(cur)
            cur = []
        else:
            cur.append(x)
    params.append(cur)
    for p in params:
        if m.group(1) not in p:
            continue
        k = 1 if p[:1] == [".param"] else None
        if k is not None and p[k:k + 1] == [".align"] and re.match(r"(0|[1-9][0-9]*)$", p[k + 1]):
            k += 2
        if k is None or p[k][:1] != "." or p[k][1:] not in _PYPTX_TYPES:
            return None
        return "parameter %s is .param [.align N] .%s, which raw_params can write" % (
            m.group(1), p[k][1:])
    return "no parameter named %s" % m.group(1)


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
        src = raw.decode("utf-8", errors="replace")
        in_toks = ptxtok.tokenize(src)

        cmd = [opts["codegen"]] + (["--sugar"] if opts["mode"] == "sugar" else []) + [path]
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
            r = subprocess.run([opts["python"], "-c", RUNNER, gen], capture_output=True,
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
                reasons.append("(2) entry %s (line %d): no KERNELS[%r]" % (name, in_toks[e["start"]][1], name))
                continue
            if "error" in k:
                reasons.append("(2) entry %s: %s" % (name, k["error"].rstrip()))
                continue
            kt = ptxtok.tokenize(k["ptx"])
            ke = [x for x in ptxtok.find_entries(kt) if x["name"] == name]
            if len(ke) != 1:
                reasons.append("(2) entry %s: KERNELS[%r].ptx() has %d entries named %r"
                               % (name, name, len(ke), name))
                continue
            b = kt[ke[0]["start"]:ke[0]["end"]]
            d = compare(a, b, rename, in_local, local_names(kt) if rename else (), fixed)
            if d is not None:
                reasons.append("(2) entry %s differs from KERNELS[%r].ptx(): %s"
                               % (name, name, _fmt_diff(a, b, d, "traced")))
        for name in list(kernels) + list(unsup):
            if name not in fixed:
                reasons.append("(2) KERNELS[%r] matches no .entry of the input" % name)
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
    args = ap.parse_args(argv)

    files = collect(args.paths)
    if not files:
        sys.stderr.write("harness: no .ptx files found\n")
        return 2
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="pyptx-harness-")
    opts = {"codegen": os.path.abspath(args.codegen), "python": args.python,
            "mode": args.mode, "timeout": args.timeout, "keep": args.keep, "tmp": tmp,
            "jit": os.path.abspath(args.jit) if args.jit else None}
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
