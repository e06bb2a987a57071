#!/usr/bin/env python3
"""run_tests.py - end-to-end tests of pyptx-diff over real PTX pairs.

    run_tests.py --diff BIN --roundtrip BIN --nvcc NVCC --corpus DIR
                 --bench tools/diff_bench.py --work DIR CASE

Every pair is made here, at test time: nvcc compiles kernels.cu with and
without -lineinfo, with one source line changed and with one kernel left
out; renumber.py rewrites corpus files (labels, registers, names, one
modifier).  A missing nvcc is a failure, not a skip.  Exit 0 = pass.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "kernels.cu")
RENUMBER = os.path.join(HERE, "renumber.py")
TRITON = "external/triton/matmul_tma_v35_sm90a.ptx"
HAND = "external/less_slow_sm80.ptx"   # four kernels, %name<N> ranges
SCALE_ADD = "_Z9scale_addPfPKfS1_i"
COUNT_POS = "_Z14count_positivePiPKfi"
F64_KERNEL = "tops_f64f64_sm80mma_8x8x4_loop128_ptx_kernel"
F16_KERNEL = "tops_f16f16_sm80wmma_16x16x16_loop128_ptx_kernel"

A = None  # parsed arguments


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


def diff(*args):
    """Runs pyptx-diff; returns (exit status, stdout, stderr)."""
    p = subprocess.run([A.diff] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect_rc(rc, *args):
    got, out, err = diff(*args)
    check(got == rc, "pyptx-diff %s: exit %d, expected %d\n%s%s"
          % (" ".join(args), got, rc, out[:3000], err))
    return out


def work(name):
    return os.path.join(A.work, name)


def corpus(rel):
    path = os.path.join(A.corpus, rel)
    check(os.path.isfile(path), "corpus file missing: " + path)
    return path


def nvcc(out, *flags, src=SRC):
    check(A.nvcc and os.path.exists(A.nvcc), "nvcc not found (%r)" % A.nvcc)
    cmd = [A.nvcc, "-ptx", "-O3", "-arch=sm_80"] + list(flags) + [src, "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    check(p.returncode == 0, "nvcc failed: %s\n%s" % (cmd, p.stderr))
    return out


def renumber(mode, src, dst, *extra):
    p = subprocess.run([sys.executable, RENUMBER, mode, src, dst] + list(extra),
                       capture_output=True, text=True)
    check(p.returncode == 0, "renumber.py %s failed: %s" % (mode, p.stderr))
    return dst


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def line_of(path, needle):
    """1-based number of the only line of path containing needle."""
    hits = [i + 1 for i, l in enumerate(read(path).split("\n")) if needle in l]
    check(len(hits) == 1, "%r on %d lines of %s" % (needle, len(hits), path))
    return hits[0]


def hunks(out):
    """[(header, [lines])] of a unified report."""
    result = []
    for line in out.split("\n"):
        if line.startswith("@@"):
            result.append((line, []))
        elif result and line:
            result[-1][1].append(line)
    return result


def nvcc_pair():
    a = nvcc(work("k_O3.ptx"))
    changed = write(work("k_changed.cu"),
                    read(SRC).replace("#define SCALE 2.0f", "#define SCALE 3.0f"))
    b = nvcc(work("k_changed.ptx"), src=changed)
    return a, b


# ---- cases

def case_lineinfo():
    """nvcc with and without -lineinfo: same only with --ignore-debug."""
    a = nvcc(work("k_O3.ptx"))
    b = nvcc(work("k_O3_lineinfo.ptx"), "-lineinfo")
    out = expect_rc(1, a, b)
    check("+\t.loc" in out and "+.file" in out and "+.section .debug_str" in out,
          "debug lines not reported:\n" + out[:2000])
    check(expect_rc(0, "--ignore-debug", a, b) == "", "output when same")
    check(expect_rc(0, "--ignore-debug", "--stat", a, b) == "", "stat when same")
    # a Triton file with its .loc, .file, debug sections and debug-only
    # labels cut out by text: the labels branches use must stay
    lines, skip, kept = read(corpus(TRITON)).split("\n"), False, []
    for l in lines:
        s = l.strip()
        if s.startswith(".section") and ".debug_" in s:
            skip = True
        if not skip and not re.match(r"(\.loc|\.file)\s", s) \
                and not re.match(r"\$L__(tmp|func_begin|func_end)\d+:", s):
            kept.append(l)
        if skip and s == "}":
            skip = False
    stripped = write(work("triton_nodebug.ptx"), "\n".join(kept))
    check(read(stripped).count("$L__BB0_") > 2, "branch labels were cut")
    expect_rc(1, corpus(TRITON), stripped)
    expect_rc(0, "--ignore-debug", corpus(TRITON), stripped)


EXPECTED_SCALE = """\
--- {a}
+++ {b}
@@ -43,7 +43,7 @@ _Z9scale_addPfPKfS1_i
 \tcvta.to.global.u64\t%rd7, %rd3;
 \tadd.s64\t%rd8, %rd7, %rd5;
 \tld.global.f32\t%f2, [%rd8];
-\tfma.rn.f32\t%f3, %f1, 0f40000000, %f2;
+\tfma.rn.f32\t%f3, %f1, 0f40400000, %f2;
 \tcvta.to.global.u64\t%rd9, %rd1;
 \tadd.s64\t%rd10, %rd9, %rd5;
 \tst.global.f32\t[%rd10], %f3;
"""


def case_source_change():
    """-O3 with SCALE 2.0f -> 3.0f: exactly the one fma is reported."""
    a, b = nvcc_pair()
    out = expect_rc(1, a, b)
    hs = hunks(out)
    check(len(hs) == 1, "expected one hunk:\n" + out)
    header, body = hs[0]
    minus = [l for l in body if l.startswith("-")]
    plus = [l for l in body if l.startswith("+")]
    check(len(minus) == 1 and len(plus) == 1, "expected one -/+ pair:\n" + out)
    check("0f40000000" in minus[0] and "0f40400000" in plus[0], out)
    check(minus[0][1:].replace("0f40000000", "0f40400000") == plus[0][1:], out)
    check(header.endswith("@@ " + SCALE_ADD), "header: " + header)
    # three kept lines before: the hunk starts three statements up
    fma = line_of(a, "0f40000000")
    m = re.match(r"@@ -(\d+),7 \+(\d+),7 @@", header)
    check(m and int(m.group(1)) == fma - 3 and int(m.group(2)) == fma - 3,
          "hunk lines: %s, fma on line %d" % (header, fma))
    version = subprocess.run([A.nvcc, "--version"], capture_output=True,
                             text=True).stdout
    if "release 13.0" in version:   # the exact text this nvcc gives
        check(out == EXPECTED_SCALE.format(a=a, b=b),
              "unexpected report:\n" + out)
    # still reported with every normalisation on
    out2 = expect_rc(1, "--ignore-debug", "--ignore-regs", "--ignore-labels",
                     "--ignore-names", a, b)
    check(len(hunks(out2)) == 1, out2)
    check(expect_rc(1, "--stat", a, b) ==
          " %s | 1 changed\n 1 of 3 units differ: 0 statements added, "
          "0 removed, 1 changed\n" % SCALE_ADD, "stat")


def body_statements(path, func):
    """Statements of func counted from the text: header, braces, and every
    non-blank, non-comment line of the body (nvcc: one per line)."""
    lines = read(path).split("\n")
    start = next(i for i, l in enumerate(lines) if ".entry " + func + "(" in l)
    open_ = next(i for i in range(start, len(lines)) if lines[i] == "{")
    close = next(i for i in range(open_, len(lines)) if lines[i] == "}")
    body = [l for l in lines[open_ + 1:close]
            if l.strip() and not l.strip().startswith("//")]
    return 3 + len(body)


def case_functions():
    """A kernel left out (-DNO_COUNT): reported as removed / added; and
    --function picks functions by name."""
    a = nvcc(work("k_O3.ptx"))
    b = nvcc(work("k_nocount.ptx"), "-DNO_COUNT")
    n = body_statements(a, COUNT_POS)
    out = expect_rc(1, a, b)
    hs = hunks(out)
    check(len(hs) == 1, out)
    header, body = hs[0]
    check(re.match(r"@@ -\d+,\d+ \+0,0 @@ %s: function removed$" % COUNT_POS,
                   header), header)
    check(all(l.startswith("-") for l in body), "removed lines")
    check(body[0].startswith("-.visible .entry " + COUNT_POS + "("), body[0])
    check(expect_rc(1, "--stat", a, b) ==
          " %s | function removed, %d statements\n 1 of 3 units differ: "
          "0 statements added, %d removed, 0 changed\n" % (COUNT_POS, n, n),
          "stat of removed function")
    out = expect_rc(1, b, a)
    check(re.search(r"@@ -0,0 \+\d+,\d+ @@ %s: function added\n" % COUNT_POS,
                    out), out)
    check(expect_rc(0, "--function", SCALE_ADD, a, b) == "", "other function")
    out = expect_rc(1, "--function", COUNT_POS, "--function", SCALE_ADD, a, b)
    check("function removed" in out, out)
    rc, _, err = diff("--function", "no_such_kernel", a, b)
    check(rc == 2 and "no_such_kernel" in err, "unknown --function: %d %s"
          % (rc, err))
    # the changed pair, limited to the unchanged kernel
    a2, b2 = nvcc_pair()
    expect_rc(0, "--function", COUNT_POS, a2, b2)
    expect_rc(1, "--function", SCALE_ADD, a2, b2)


def case_canonical():
    """A corpus file against its canonical form, and against a copy with
    other formatting and comments: same."""
    for rel in (TRITON, HAND):
        src = corpus(rel)
        p = subprocess.run([A.roundtrip, "--emit", "--canonical", src],
                           capture_output=True, text=True)
        check(p.returncode == 0, "roundtrip --emit failed: " + p.stderr)
        canon = write(work(os.path.basename(rel) + ".canon.ptx"), p.stdout)
        check(read(canon) != read(src), "canonical form is the input")
        check(expect_rc(0, src, canon) == "", "output when same")
        expect_rc(0, "--stat", "--json", canon, src)
        noisy = read(src).replace("\t", "  ").replace(";\n", "; // note\n")
        expect_rc(0, src, write(work(os.path.basename(rel) + ".noisy.ptx"),
                                "/* a comment */\n" + noisy))


def case_labels():
    """Labels renamed by a script: same only with --ignore-labels."""
    for rel in (TRITON, HAND):
        src = corpus(rel)
        dst = renumber("labels", src, work("labels_" + os.path.basename(rel)))
        expect_rc(1, src, dst)
        expect_rc(1, "--ignore-regs", src, dst)
        expect_rc(0, "--ignore-labels", src, dst)
        expect_rc(0, "--ignore-names", src, dst)


def case_regs():
    """Registers renumbered (and %r<N> counts changed) by a script: same
    only with --ignore-regs."""
    for rel in (TRITON, HAND):
        src = corpus(rel)
        dst = renumber("regs", src, work("regs_" + os.path.basename(rel)))
        expect_rc(1, src, dst)
        expect_rc(1, "--ignore-labels", src, dst)
        expect_rc(0, "--ignore-regs", src, dst)
        expect_rc(0, "--ignore-regs", "--ignore-debug", src, dst)
    # a real recompile: the same kernels with -lineinfo and other flags may
    # renumber; the nvcc pair with a changed constant stays different
    a, b = nvcc_pair()
    expect_rc(1, "--ignore-regs", a, b)


def case_names():
    """Functions, parameters and labels renamed: same only with
    --ignore-names."""
    for src in (corpus(HAND), nvcc(work("k_O3.ptx"))):
        dst = renumber("names", src, work("names_" + os.path.basename(src)))
        expect_rc(1, src, dst)
        expect_rc(1, "--ignore-labels", src, dst)
        expect_rc(0, "--ignore-names", src, dst)


EXPECTED_MODIFIER = """\
--- {a}
+++ {b}
@@ -266,1 +266,1 @@ {f} (loop_start)
-\tmma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64\t{{accum0, accum1}}, {{matrix_a}}, {{matrix_b}}, {{bias0, bias1}};
+\tmma.sync.aligned.m8n8k4.row.row.f64.f64.f64.f64\t{{accum0, accum1}}, {{matrix_a}}, {{matrix_b}}, {{bias0, bias1}};
"""


def case_modifier():
    """.col -> .row in the third kernel's mma: reported at that function,
    under the nearest label, at line 266."""
    src = corpus(HAND)
    dst = renumber("modifier", src, work("modifier.ptx"), "266", "col", "row")
    out = expect_rc(1, "-U", "0", src, dst)
    check(out == EXPECTED_MODIFIER.format(a=src, b=dst, f=F64_KERNEL),
          "unexpected report:\n" + out)
    out = expect_rc(1, src, dst)
    check(out.split("\n")[2] == "@@ -262,7 +262,7 @@ %s (loop_start)"
          % F64_KERNEL, out)
    # the normalisations change what compares, never what is printed
    for flags in (["--ignore-regs"], ["--ignore-names", "--ignore-debug"]):
        check(expect_rc(1, "-U", "0", *flags, src, dst)
              == EXPECTED_MODIFIER.format(a=src, b=dst, f=F64_KERNEL),
              "with %s" % flags)


def stat_pair():
    """less_slow_sm80.ptx with, in its first kernel, one line changed, two
    removed and one added (each far enough apart to stay separate)."""
    src = corpus(HAND)
    lines = read(src).split("\n")
    edits = {70: "    mov.u32 loop_limit, 128;", 75: "    mov.f32 accum1, 0.0;",
             88: "    mov.b32 matrix_a5, packed_const;", 123: "    bar.sync 0;"}
    for n, text in edits.items():
        check(lines[n - 1] == text, "corpus line %d is %r" % (n, lines[n - 1]))
    lines[122] += "\n    bar.sync 1;"
    lines[87] = lines[74] = None
    lines[69] = "    mov.u32 loop_limit, 256;"
    return src, write(work("stat.ptx"),
                      "\n".join(l for l in lines if l is not None))


def case_stat():
    """--stat counts: 1 added, 2 removed, 1 changed."""
    src, dst = stat_pair()
    check(expect_rc(1, "--stat", src, dst) ==
          " %s | 1 added, 2 removed, 1 changed\n 1 of 5 units differ: "
          "1 statements added, 2 removed, 1 changed\n" % F16_KERNEL, "stat")
    out = expect_rc(1, src, dst)
    heads = [h for h, _ in hunks(out)]
    check(len(heads) == 3 and all(F16_KERNEL in h for h in heads), out)
    body = "\n".join(l for _, b in hunks(out) for l in b)
    check(body.count("\n-") + body.startswith("-") == 3
          and body.count("\n+") == 2, out)
    expect_rc(0, "--stat", src, src)


def case_json():
    """--json: the same facts as data."""
    src, dst = stat_pair()
    rep = json.loads(expect_rc(1, "--json", src, dst))
    check(rep["same"] is False and rep["a"] == src and rep["b"] == dst, rep)
    units = {u["name"]: u for u in rep["units"]}
    check(len(units) == 5 and units["(module)"]["status"] == "same", units)
    u = units[F16_KERNEL]
    check((u["status"], u["added"], u["removed"], u["changed"])
          == ("changed", 1, 2, 1), u)
    check(len(u["hunks"]) == 3 and rep["totals"] == {
        "units": 5, "differing": 1, "added": 1, "removed": 2, "changed": 1},
        rep["totals"])
    ops = [(l["op"], l["text"]) for h in u["hunks"] for l in h["lines"]
           if l["op"] != " "]
    check(ops == [("-", "\tmov.u32\tloop_limit, 128;"),
                  ("+", "\tmov.u32\tloop_limit, 256;"),
                  ("-", "\tmov.f32\taccum1, 0.0;"),
                  ("-", "\tmov.b32\tmatrix_a5, packed_const;"),
                  ("+", "\tbar.sync\t1;")], ops)
    first = [l for l in u["hunks"][0]["lines"] if l["op"] == "-"][0]
    check(first["a_line"] == 70, first)
    check(u["hunks"][0]["label"] is None and u["hunks"][2]["label"] ==
          "loop_exit", u["hunks"])
    rep = json.loads(expect_rc(0, "--json", src, src))
    check(rep["same"] is True and rep["totals"]["differing"] == 0, rep)


def case_errors():
    """Trouble: exit 2 with the front end's file:line:col diagnostics."""
    bad = write(work("broken.ptx"), ".version 8.0\n.target sm_90\n"
                ".entry k()\n{\n\tmov.u32 %r1 %r2;\n}\n")
    rc, out, err = diff(corpus(HAND), bad)
    check(rc == 2 and re.search(r"broken\.ptx:5:\d+: error: ", err),
          "syntax error: %d %r" % (rc, err))
    rc, _, err = diff(corpus(HAND), work("does_not_exist.ptx"))
    check(rc == 2 and "does_not_exist.ptx" in err, "missing file: %r" % err)
    check(diff(corpus(HAND))[0] == 2, "one file")
    check(diff("--bogus", corpus(HAND), corpus(HAND))[0] == 2, "bad option")


def case_large():
    """Two 10 MB files, five kernels changed: exactly those five are
    reported, and nothing with the files the same.  Its speed is measured
    by tools/diff_bench.py, not here."""
    a, b = work("big_a.ptx"), work("big_b.ptx")
    p = subprocess.run([sys.executable, A.bench, corpus(TRITON), a, b,
                        "--mb", "10", "--changes", "5"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "diff_bench.py: " + p.stderr)
    changed = p.stdout.split()
    check(len(changed) == 5 and os.path.getsize(a) >= 10e6, p.stdout)
    for args, rc in ((["--stat", a, b], 1), (["--stat", a, a], 0),
                     (["--stat", "--ignore-debug", "--ignore-regs", a, b], 1)):
        out = expect_rc(rc, *args)
        if rc:
            names = [l.split("|")[0].strip() for l in out.split("\n")[:-2]]
            check(names == changed, "reported %s, changed %s" % (names, changed))


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}


def main():
    global A
    ap = argparse.ArgumentParser()
    for opt in ("diff", "roundtrip", "nvcc", "corpus", "bench", "work"):
        ap.add_argument("--" + opt, default="")
    ap.add_argument("case", choices=sorted(CASES))
    A = ap.parse_args()
    A.work = os.path.join(A.work, A.case)
    os.makedirs(A.work, exist_ok=True)
    try:
        CASES[A.case]()
    except Fail as e:
        print("FAIL %s: %s" % (A.case, e))
        return 1
    print("ok %s" % A.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
