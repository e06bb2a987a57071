#!/usr/bin/env python3
"""Idiomatic pyptx, decompiled: the corpus of kernels written the way
pyptx's documentation teaches, traced, run through `--sugar`, and compared.

    run.py [--python PY] [--ptxas PTXAS] CODEGEN [KERNEL.py ...]

For every kernel file (tests/idiomatic/*.py by default; each defines
KERNEL, a pyptx Kernel, and ARGS, its keyword arguments):

  1. trace KERNEL with pyptx 0.1.1: the original PTX;
  1b. with --ptxas, assemble that PTX for its target (a kernel of the
     corpus must be real code);
  2. `CODEGEN --sugar` on it; run the result under pyptx: its module must
     be the original PTX byte for byte (faithful), and every name it
     references must resolve (a traced module is checked by ptxas's rules
     on the GPU tests; here, by equality);
  3. count, in the original kernel function and in the decompiled one:
     lines (non-blank, non-comment, decorator included), operator
     expressions (a = b + c, a += b, p = a < b), calls of DSL helpers other
     than ptx.inst (ptx.*, reg.*), loops (ptx.loop, for), barrier waits;
     and the plain forms in the decompiled code (_raw, _raw_emit,
     ptx._make_tma_address, operand text in strings: counted, not hidden).

Prints one line per kernel and the totals, then `N passed, N failed`: a
kernel passes when it is faithful.  The exit status is non-zero unless
every kernel passes and the targets hold: decompiled at most 1.3x the
original, in total and per GEMM or attention kernel, and every helper of
the original (whose expansion is fixed PTX) in the decompiled code, and
a local helper function where the original defines one."""
import argparse
import ast
import glob
import importlib.util
import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = 1.3

# Runs under --python: trace a kernel file (argv[1]), or run a generated
# file as a script, which prints its module (argv[2] = "gen"), and print
# the PTX.
TRACE = r'''
import importlib.util, runpy, sys
sys.path.insert(0, sys.argv[3])
if sys.argv[2] == "gen":
    sys.argv = sys.argv[1:2]
    runpy.run_path(sys.argv[0], run_name="__main__")
else:
    spec = importlib.util.spec_from_file_location("k", sys.argv[1])
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    sys.stdout.write(m.KERNEL.ptx(**m.ARGS))
'''

HELPER = re.compile(r"\b(ptx\.(?!inst\b)[A-Za-z_][\w.]*|reg\.[A-Za-z_]\w*|smem\.[A-Za-z_]\w*)\s*\(")
# helpers whose expansion is not fixed PTX of their own (they name or
# build objects), or that the PTX cannot show: not looked for
NOT_FIXED = {"ptx.addr", "ptx.global_ptrs", "ptx.special", "reg.array", "reg.scalar",
             "reg.from_", "reg.wgmma_frag", "smem.wgmma_tile", "ptx.mbarrier.array",
             "smem.mbarrier", "smem.alloc", "ptx.pipeline"}
GEMM = re.compile(r"^(gemm|flash)")
OPERATOR = re.compile(r"^\s*[\w\[\]]+\s*(=\s*[^=].*(\s[-+*&|^]|<<|>>|\s[<>]=?\s|==|!=)|"
                      r"(\+|-|\*|<<|>>|&|\^)=)")
LOOP = re.compile(r"^\s*(with ptx\.loop\(|for .* in )")
WAIT = re.compile(r"(\.wait\(|mbarrier\.wait\(|_mbar_wait\w*\()")
PLAIN = re.compile(r"\b(_raw|_raw_emit|ptx\._make_tma_address)\(")


def kernel_source(path, name):
    """Lines of the function `name` in a file, decorator included, without
    blank lines, comments and docstrings."""
    text = open(path, encoding="utf-8").read()
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            lines = text.splitlines()[start - 1:node.end_lineno]
            doc = ast.get_docstring(node)
            out = []
            for ln in lines:
                s = ln.strip()
                if not s or s.startswith("#"):
                    continue
                out.append(ln)
            if doc:
                out = [ln for ln in out if ln.strip() not in ('"""' + doc + '"""',)]
            return out
    return []


def local_defs(lines):
    """Functions defined inside the kernel function (its own helpers)."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return 0
    kern = tree.body[0] if tree.body else None
    return sum(1 for n in ast.walk(kern) if isinstance(n, ast.FunctionDef) and n is not kern) \
        if kern else 0


def count(lines):
    text = "\n".join(lines)
    return {
        "defs": local_defs(lines),
        "lines": len(lines),
        "operators": sum(1 for ln in lines if OPERATOR.search(ln)),
        "helpers": len(HELPER.findall(text)),
        "names": {h.split("(")[0] for h in HELPER.findall(text)},
        "loops": sum(1 for ln in lines if LOOP.search(ln)),
        "waits": len(WAIT.findall(text)),
        "plain": len(PLAIN.findall(text)),
    }


def run(py, *args):
    r = subprocess.run([py, "-c", TRACE] + list(args), capture_output=True, timeout=300)
    if r.returncode:
        raise RuntimeError(r.stderr.decode("utf-8", "replace")[-1500:])
    return r.stdout.decode("utf-8")


def check(py, codegen, path, work, ptxas):
    name = os.path.basename(path)[:-3]
    ptx = run(py, path, "orig", HERE)
    src = os.path.join(work, name + ".ptx")
    if ptxas:
        with open(src, "w") as f:
            f.write(ptx)
        arch = re.search(r"^\.target (\w+)", ptx, re.M).group(1)
        r = subprocess.run([ptxas, "-arch=" + arch, src, "-o", os.devnull],
                           capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("ptxas rejects the traced PTX: " + r.stderr.strip())
    gen = os.path.join(work, name + ".sugar.py")
    with open(src, "w") as f:
        f.write(ptx)
    r = subprocess.run([codegen, "--sugar", src], capture_output=True, timeout=300)
    if r.returncode:
        raise RuntimeError(r.stderr.decode("utf-8", "replace"))
    with open(gen, "wb") as f:
        f.write(r.stdout)
    back = run(py, gen, "gen", HERE)
    m = re.search(r"^\.visible \.entry (\w+)", ptx, re.M) or re.search(r"\.entry (\w+)", ptx)
    entry = m.group(1)
    orig = count(kernel_source(path, entry))
    # the decompiled kernel: the function of the same entry (its Python name
    # may differ: the first def after the decorator that names the entry)
    gl = r.stdout.decode("utf-8").splitlines()
    fn = None
    for node in ast.walk(ast.parse("\n".join(gl))):
        if isinstance(node, ast.FunctionDef) and node.decorator_list and node.name != "_raw":
            fn = node.name
    dec = count(kernel_source(gen, fn)) if fn else count([])
    return back == ptx, orig, dec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--ptxas", help="also assemble each traced kernel with this ptxas")
    ap.add_argument("codegen")
    ap.add_argument("kernels", nargs="*")
    args = ap.parse_args()
    files = args.kernels or sorted(p for p in glob.glob(os.path.join(HERE, "*.py"))
                                   if os.path.basename(p) != "run.py")
    work = tempfile.mkdtemp(prefix="idiomatic-")
    keys = ("lines", "operators", "helpers", "loops", "waits", "plain")
    over, missing = [], {}
    tot_o = dict.fromkeys(keys, 0)
    tot_d = dict.fromkeys(keys, 0)
    passed = failed = 0
    print("%-18s %-9s %7s %7s %6s  %-9s %-9s %-7s %-7s %s" % (
        "kernel", "faithful", "lines", "decomp", "ratio", "operators", "helpers", "loops",
        "waits", "plain"))
    for path in files:
        name = os.path.basename(path)[:-3]
        try:
            ok, o, d = check(args.python, os.path.abspath(args.codegen), path, work, args.ptxas)
        except Exception as e:  # a kernel that does not trace, or codegen failing
            failed += 1
            print("%-18s FAIL: %s" % (name, str(e).strip().splitlines()[-1] if str(e).strip() else e))
            continue
        passed += ok
        failed += not ok
        if GEMM.match(name) and d["lines"] > TARGET * o["lines"]:
            over.append("%s %.2fx" % (name, d["lines"] / o["lines"]))
        gone = sorted(h for h in o["names"] - d["names"]
                      if not any(h.startswith(n) for n in NOT_FIXED))
        if o["defs"] and not d["defs"]:
            gone.append("its local helper functions (none defined)")
        if gone:
            missing[name] = gone
        for k in keys:
            tot_o[k] += o[k]
            tot_d[k] += d[k]
        print("%-18s %-9s %7d %7d %6.2f  %4d/%-4d %4d/%-4d %3d/%-3d %3d/%-3d %d" % (
            name, "yes" if ok else "NO", o["lines"], d["lines"], d["lines"] / max(o["lines"], 1),
            o["operators"], d["operators"], o["helpers"], d["helpers"], o["loops"], d["loops"],
            o["waits"], d["waits"], d["plain"]))
    ratio = tot_d["lines"] / max(tot_o["lines"], 1)
    print("%-18s %-9s %7d %7d %6.2f  %4d/%-4d %4d/%-4d %3d/%-3d %3d/%-3d %d" % (
        "total", "", tot_o["lines"], tot_d["lines"], ratio, tot_o["operators"], tot_d["operators"],
        tot_o["helpers"], tot_d["helpers"], tot_o["loops"], tot_d["loops"], tot_o["waits"],
        tot_d["waits"], tot_d["plain"]))
    print("(counts: original/decompiled; plain: _raw, _raw_emit and private helpers in the "
          "decompiled code)")
    print("line target (decompiled <= %.1fx the original in total): %s"
          % (TARGET, "met" if ratio <= TARGET else "not met (%.2fx)" % ratio))
    print("... and on each GEMM or attention kernel: %s"
          % ("met" if not over else "not met (" + ", ".join(over) + ")"))
    print("helpers of the original not in the decompiled code: %s"
          % ("none" if not missing else
             "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in sorted(missing.items()))))
    print("%d passed, %d failed" % (passed, failed))
    # the targets are the test's too: a kernel that decompiles longer, or
    # loses a helper its author used, fails it like an unfaithful one
    return 1 if failed or ratio > TARGET or over or missing else 0


if __name__ == "__main__":
    sys.exit(main())
