#!/usr/bin/env python3
"""Bad-input suite for pyptx-roundtrip (see tests/bad/README.md).

    run.py --roundtrip PROG CASE            one case (tests/bad/tests.cmake)
    run.py --roundtrip PROG --regressions DIR

Every run of PROG must end with exit status 0 or 1: 2 and up (usage errors,
a signal: the shell's 128+N, Python's negative status) fails the test.  On
an error, `--emit` writes nothing to standard output and its first line on
standard error is `FILE:LINE:COL: error: MESSAGE` (or `FILE: error: MESSAGE`
where there is no position).  Accepted input must re-emit byte-identical and
pass `--canonical`.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIAG = re.compile(rb"^[^\n]*?(:\d+:\d+)?: error: [^\n]+$")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(prog, args, cwd=None, stdin=None, timeout=600):
    t0 = time.monotonic()
    p = subprocess.run([prog] + args, cwd=cwd, stdin=stdin, capture_output=True,
                       timeout=timeout)
    return p, time.monotonic() - t0


SANITIZER = re.compile(rb"runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer|"
                       rb"UndefinedBehaviorSanitizer")


def status_ok(what, p):
    # a sanitizer report fails whatever the status (they exit 1 by default)
    if SANITIZER.search(p.stderr):
        fail("%s: sanitizer report\n%s" % (what, p.stderr.decode(errors="replace")[-3000:]))
        return False
    if p.returncode not in (0, 1):
        how = ("killed by signal %d" % -p.returncode if p.returncode < 0
               else "exit status %d" % p.returncode)
        fail("%s: %s\n%s" % (what, how, p.stderr.decode(errors="replace")[-2000:]))
        return False
    return True


def first_line(b):
    return b.split(b"\n", 1)[0].decode("utf-8", errors="replace")


def check_file(prog, path, expect=None, cwd=None, canonical=True):
    """--emit: 0 and the exact bytes, or 1, no output and a diagnostic
    (equal to `expect` when given: "accepted" or the first stderr line).
    Returns the first diagnostic line, or None when accepted."""
    arg = os.path.relpath(path, cwd) if cwd else path
    p, _ = run(prog, ["--emit", arg], cwd=cwd)
    if not status_ok("--emit " + arg, p):
        return "?"
    diag = None
    if p.returncode == 0:
        with open(path, "rb") as f:
            if p.stdout != f.read():
                fail("--emit %s: exit 0 but the output differs from the input" % arg)
        if canonical:
            q, _ = run(prog, ["--canonical", arg], cwd=cwd)
            if status_ok("--canonical " + arg, q) and q.returncode != 0:
                fail("--canonical %s: parses but fails:\n%s" % (arg, q.stdout.decode(errors="replace")))
    else:
        diag = first_line(p.stderr)
        if p.stdout:
            fail("--emit %s: error, yet %d bytes on standard output" % (arg, len(p.stdout)))
        if not DIAG.match(p.stderr.split(b"\n", 1)[0]):
            fail("--emit %s: first line is not a diagnostic: %r" % (arg, diag))
    if expect is not None:
        got = "accepted" if diag is None else diag
        if got != expect:
            fail("%s: expected\n    %s\n  got\n    %s" % (arg, expect, got))
    return diag


# ---- committed cases: NAME.ptx + NAME.expect --------------------------------

def case_committed(prog, work):
    names = sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".ptx"))
    for n in names:
        exp_path = os.path.join(HERE, n + ".expect")
        if not os.path.exists(exp_path):
            fail("%s.ptx has no %s.expect" % (n, n))
            continue
        with open(exp_path, encoding="utf-8") as f:
            expect = f.readline().rstrip("\n")
        check_file(prog, os.path.join(HERE, n + ".ptx"), expect, cwd=HERE)
    # and all of them in one verifying run, with threads
    p, _ = run(prog, ["--canonical", "--jobs", "2"] + [n + ".ptx" for n in names], cwd=HERE)
    status_ok("--canonical tests/bad/*.ptx", p)
    print("%d committed cases" % len(names))


# ---- generated cases --------------------------------------------------------

HEAD = ".version 8.3\n.target sm_90\n.address_size 64\n\n"


def write(work, name, text):
    path = os.path.join(work, name)
    with open(path, "w" if isinstance(text, str) else "wb") as f:
        f.write(text)
    return path


def expect_gen(prog, work, name, text, expect):
    """The generated input `text` gives `expect`.  No time is asserted (a
    quadratic case still ends within run()'s 600 s guard, and its timing
    belongs in a benchmark); the time is printed for the log."""
    path = write(work, name, text)
    t0 = time.monotonic()
    check_file(prog, path, expect, cwd=work)
    print("%s: %d bytes, %.2f s" % (name, len(text), time.monotonic() - t0))


def case_huge_line(prog, work):
    # a 10 MB single line: an initializer of 1.25 million elements
    body = ",".join(["1234567"] * 1250000)
    text = HEAD + ".global .u32 table[1250000] = {" + body + "};"
    expect_gen(prog, work, "huge_line.ptx", text, "accepted")
    # and a 10 MB identifier with no newline at all: one token
    expect_gen(prog, work, "huge_token.ptx", HEAD + ".global .u32 " + "x" * 10000000 + ";",
               "accepted")


def case_deep_nesting(prog, work):
    text = HEAD + ".visible .entry k()\n" + "{" * 100000 + "\n"
    expect_gen(prog, work, "deep_braces.ptx", text,
               "deep_braces.ptx:6:1001: error: brackets nested deeper than 1000")
    ops = {"deep_parens.ptx": "(" * 100000, "deep_unary.ptx": "-" * 100000,
           "deep_assign.ptx": "a=" * 100000, "deep_cond.ptx": "a?b:" * 100000,
           "long_sum.ptx": "a+" * 100000}
    msgs = {"deep_parens.ptx": "brackets nested deeper than 1000"}
    for name, op in sorted(ops.items()):
        text = HEAD + ".visible .entry k()\n{\n\tmov.u32 %r1, " + op + "1;\n}\n"
        path = write(work, name, text)
        diag = check_file(prog, path, None, cwd=work)
        want = msgs.get(name, "expression nested deeper than 1000")
        if not diag or not diag.endswith("error: " + want):
            fail("%s: expected '%s', got %r" % (name, want, diag))


def case_many_params(prog, work):
    params = ",\n".join("\t.param .u32 p%d" % i for i in range(10000))
    text = HEAD + ".visible .entry k(\n" + params + "\n)\n{\n\tret;\n}\n"
    expect_gen(prog, work, "many_params.ptx", text, "accepted")
    # and 100 000 operands, 100 000 declarators, 100 000 statements
    ops = ", ".join("%%r%d" % i for i in range(100000))
    text = HEAD + ".visible .entry k()\n{\n\tcall f, (" + ops + ");\n\tret;\n}\n"
    expect_gen(prog, work, "many_operands.ptx", text, "accepted")
    decls = ", ".join("v%d" % i for i in range(100000))
    expect_gen(prog, work, "many_declarators.ptx", HEAD + ".global .u32 " + decls + ";\n",
               "accepted")
    stmts = "".join("\tadd.s32 %%r1, %%r1, %d;\n" % i for i in range(100000))
    expect_gen(prog, work, "many_statements.ptx",
               HEAD + ".visible .entry k()\n{\n" + stmts + "\tret;\n}\n", "accepted")


def peak_rss_kb(cmd, cwd, stdin=None):
    """(CompletedProcess, seconds, peak RSS in KB or None) via /usr/bin/time -v."""
    timev = shutil.which("time", path="/usr/bin:/bin")
    t0 = time.monotonic()
    if timev:
        p = subprocess.run([timev, "-v"] + cmd, cwd=cwd, stdin=stdin, capture_output=True,
                           timeout=120)
        m = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
        rss = int(m.group(1)) if m else None
        p.stderr = p.stderr.split(b"\tCommand being timed:")[0]
        if b"Command terminated by signal" in p.stderr or b"Command exited" in p.stderr:
            p.stderr = re.sub(rb"Command (exited with non-zero status|terminated by signal) \d+\n", b"",
                              p.stderr)
        return p, time.monotonic() - t0, rss
    p = subprocess.run(cmd, cwd=cwd, stdin=stdin, capture_output=True, timeout=120)
    return p, time.monotonic() - t0, None


def case_2gib(prog, work):
    """A sparse 2200 MiB file: refused at once, without reading it."""
    path = os.path.join(work, "huge.ptx")
    with open(path, "wb") as f:
        f.write(HEAD.encode())
    subprocess.run(["truncate", "-s", "2200M", path], check=True)
    with open(path, "ab") as f:
        f.write(b"\n.visible .entry k()\n{\n\tret;\n}\n")
    size = os.path.getsize(path)
    want = ("error: input of 2 GiB or more is not supported (%d bytes; the limit is 2147483647)"
            % size)
    try:
        for label, args, stdin, name in (("--emit", ["--emit", "huge.ptx"], None, "huge.ptx"),
                                         ("verify", ["huge.ptx"], None, "huge.ptx"),
                                         ("--emit - <", ["--emit", "-"], "huge.ptx", "<stdin>")):
            fin = open(path, "rb") if stdin else None
            try:
                p, dt, rss = peak_rss_kb([prog] + args, work, stdin=fin)
            finally:
                if fin:
                    fin.close()
            out = (p.stdout if label == "verify" else p.stderr).decode(errors="replace")
            print("%s: exit %d, %.2f s, peak RSS %s KB: %s" % (label, p.returncode, dt, rss,
                                                              out.splitlines()[0] if out else ""))
            if p.returncode != 1:
                fail("2 GiB %s: exit status %d, expected 1" % (label, p.returncode))
            if name + ": " + want not in out:
                fail("2 GiB %s: expected '%s: %s'" % (label, name, want))
            if label == "--emit" and p.stdout:
                fail("2 GiB --emit wrote to standard output")
            if rss is not None and rss > 64 * 1024:
                fail("2 GiB %s: peak RSS %d KB, expected under 64 MB" % (label, rss))
    finally:
        os.unlink(path)


# ---- a large module taken one piece at a time --------------------------------

def big_module(n):
    """A module of n small kernels, about 1.1 KB each."""
    kern = ("\n.visible .entry k%d(\n\t.param .u64 k%d_param_0\n)\n{\n"
            "\t.reg .b32 \t%%r<8>;\n\t.reg .b64 \t%%rd<4>;\n\n"
            "\tld.param.u64 \t%%rd1, [k%d_param_0];\n"
            "\tcvta.to.global.u64 \t%%rd2, %%rd1;\n"
            "\tmov.u32 \t%%r1, %%tid.x; // the lane\n"
            "\tmul.wide.u32 \t%%rd3, %%r1, 4;\n" + "\tadd.s32 \t%%r2, %%r1, %%r1;\n" * 24 +
            "\tst.global.u32 \t[%%rd2], %%r2;\n\tret;\n}\n")
    return HEAD + "".join(kern % (i, i, i) for i in range(n))


def whole_run(prog, args, name, work):
    """The whole module's run of `prog args name`: the file on standard
    input, which the programs never cut into pieces, its name put back
    where the output says <stdin>."""
    with open(os.path.join(work, name), "rb") as f:
        q, _ = run(prog, args + ["-"], cwd=work, stdin=f)
    n = name.encode()
    q.stdout, q.stderr = q.stdout.replace(b"<stdin>", n), q.stderr.replace(b"<stdin>", n)
    return q


def codegen_pieces(codegen, work, name, want):
    """pyptx-codegen takes a large file in pieces too (plain mode): its
    Python, or its diagnostic, must be the whole module's, and a file that
    fails leaves no output file."""
    out = os.path.join(work, name + ".py")
    p, _ = run(codegen, [name + ".ptx"], cwd=work)
    q = whole_run(codegen, [], name + ".ptx", work)
    # the Python's first line names its input, standard input as "-"
    q.stdout = q.stdout.replace(b" from - for ", b" from %s.ptx for " % name.encode(), 1)
    r, _ = run(codegen, ["--jobs", "2", "-o", out, name + ".ptx"], cwd=work)
    status_ok("pyptx-codegen " + name, p)
    got = open(out, "rb").read() if os.path.exists(out) else None
    if (p.returncode, p.stdout, p.stderr) != (q.returncode, q.stdout, q.stderr) or \
            r.returncode != want or r.stderr != q.stderr or got != (None if want else q.stdout):
        fail("pyptx-codegen %s.ptx: in pieces exit %d, %d bytes, %r; whole exit %d, "
             "%d bytes, %r; -o exit %d, %s" % (name, p.returncode, len(p.stdout),
                                               first_line(p.stderr), q.returncode,
                                               len(q.stdout), first_line(q.stderr),
                                               r.returncode, "no file" if got is None else
                                               "%d bytes" % len(got)))
    if p.returncode != want or (want and p.stdout) or (not want and b"KERNELS = {" not in p.stdout):
        fail("pyptx-codegen %s.ptx: exit %d, %d bytes, expected exit %d"
             % (name, p.returncode, len(p.stdout), want))


def case_pieces(prog, work, codegen=None):
    """pyptx-roundtrip takes a module of two pieces or more (of 64 KiB) a
    piece at a time, and falls back to the whole module where a piece fails:
    the texts, the verdicts and the diagnostics must be the whole module's
    (whole_run).  With `codegen`, the same of pyptx-codegen's Python."""
    text = big_module(6000)
    path = write(work, "big.ptx", text)
    if len(text) < 4 << 20:
        fail("big.ptx: %d bytes, too small to be cut" % len(text))
    for args in (["--emit"], ["--emit", "--canonical"], ["--emit", "--jobs", "2"],
                 ["--emit", "--canonical", "--jobs", "2"]):
        p, _ = run(prog, args + ["big.ptx"], cwd=work)
        q = whole_run(prog, args, "big.ptx", work)
        if p.returncode or p.stdout != q.stdout or ("--canonical" not in args and p.stdout != text.encode()):
            fail("%s big.ptx: exit %d, %d bytes, whole module %d bytes"
                 % (" ".join(args), p.returncode, len(p.stdout), len(q.stdout)))
    p, _ = run(prog, ["--canonical", "big.ptx"], cwd=work)
    if p.returncode:
        fail("--canonical big.ptx: exit %d" % p.returncode)
    if codegen:
        codegen_pieces(codegen, work, "big", 0)
    # an error in the last piece, one in the middle, and a comment over the
    # first cut (it opens in one piece and closes in the next)
    lines = text.split("\n")
    size, first_cut = 0, 0
    while size < 1 << 20:
        size += len(lines[first_cut]) + 1
        first_cut += 1
    for name, at, insert in (("late", len(lines) - 40, "\tbogus %r1;"),
                             ("middle", len(lines) // 2, "\tadd.s32 %r1, , %r2;"),
                             ("comment", first_cut - 60, "/*")):
        bad = lines[:at] + [insert] + lines[at:]
        if name == "comment":   # closed at the same place, 3 kernels on
            per = len(big_module(2).split("\n")) - len(big_module(1).split("\n"))
            bad = bad[:at + 1 + 3 * per] + ["*/"] + bad[at + 1 + 3 * per:]
        path = write(work, name + ".ptx", "\n".join(bad))
        p, _ = run(prog, ["--emit", name + ".ptx"], cwd=work)
        q = whole_run(prog, ["--emit"], name + ".ptx", work)
        status_ok("--emit " + name, p)
        if (p.returncode, p.stdout, p.stderr) != (q.returncode, q.stdout, q.stderr):
            fail("--emit %s.ptx: in pieces exit %d, %r; whole exit %d, %r"
                 % (name, p.returncode, first_line(p.stderr), q.returncode, first_line(q.stderr)))
        want = 0 if name == "comment" else 1
        if p.returncode != want:
            fail("--emit %s.ptx: exit %d, expected %d" % (name, p.returncode, want))
        if want and (p.stdout or not first_line(p.stderr).startswith("%s.ptx:%d:" % (name, at + 1))):
            fail("--emit %s.ptx: %d bytes out, diagnostic %r, expected line %d"
                 % (name, len(p.stdout), first_line(p.stderr), at + 1))
        if codegen:
            codegen_pieces(codegen, work, name, want)
        v, _ = run(prog, [name + ".ptx"], cwd=work)
        w = whole_run(prog, [], name + ".ptx", work)
        if (v.returncode, v.stdout) != (w.returncode, w.stdout):
            fail("%s.ptx: the verdict in pieces is not the whole module's" % name)
    print("big.ptx: %d bytes; texts, verdicts%s and diagnostics as the whole module's"
          % (len(text), ", Python" if codegen else ""))


def big_function(n):
    """One kernel of n blocks of about 1.1 KB: a label, blocks within the
    body on lines of their own with a ';' line inside (a call's, an asm's
    as cuobjdump prints it), so that cuts are tried inside them too."""
    blk = ("$L__BB0_%d:\n\tadd.s32 \t%%r2, %%r1, %d;\n"
           "\t{ // callseq %d\n\t.reg .pred \t%%p;\n\tsetp.ne.s32 \t%%p, %%r2, 0;\n"
           "\tselp.u32 \t%%r3, 1, 0, %%p;\n\t} // callseq %d\n"
           "{fma.rn.f16x2 %%r4,%%r3,%%r2,%%r4;\n}\n" +
           "\tmad.lo.s32 \t%%r4, %%r3, %%r2, %%r4;\n" * 24 + "\t@%%p1 bra \t$L__BB0_%d;\n")
    body = "".join(blk % (i, i, i, i, i + 1) for i in range(n))
    return (HEAD + ".visible .entry big(\n\t.param .u64 big_param_0\n)\n.maxntid 128\n{\n"
            "\t.reg .pred \t%p<2>;\n\t.reg .b32 \t%r<8>;\n" + body +
            "$L__BB0_%d:\n\tret;\n}\n" % n)


def variants_as_whole(prog, work, variants, passing, codegen=None):
    """Each variant (name, text), written to NAME.ptx: pyptx-roundtrip's
    --emit, --emit --canonical and plain runs, which take it in pieces,
    must give the whole module's output, exit status and diagnostic
    (whole_run), and pass exactly where NAME is in `passing`; with
    `codegen`, so must pyptx-codegen's Python (codegen_pieces).  Returns
    the --emit runs by name, for what a case checks beyond that."""
    emitted = {}
    for name, text in variants:
        write(work, name + ".ptx", text)
        for args in (["--emit"], ["--emit", "--canonical"], []):
            p, _ = run(prog, args + [name + ".ptx"], cwd=work)
            q = whole_run(prog, args, name + ".ptx", work)
            status_ok(" ".join(args + [name]), p)
            if (p.returncode, p.stdout, p.stderr) != (q.returncode, q.stdout, q.stderr):
                fail("%s %s.ptx: in pieces exit %d, %d bytes, %r; whole exit %d, %d bytes, %r"
                     % (" ".join(args), name, p.returncode, len(p.stdout), first_line(p.stderr),
                        q.returncode, len(q.stdout), first_line(q.stderr)))
            if (p.returncode != 0) != (name not in passing):
                fail("%s %s.ptx: exit %d" % (" ".join(args), name, p.returncode))
            if args == ["--emit"]:
                emitted[name] = p
        if codegen:
            codegen_pieces(codegen, work, name, 0 if name in passing else 1)
    return emitted


def case_big_function(prog, work, codegen=None):
    """pyptx-roundtrip cuts a large function's body into pieces too (where
    a cut falls inside a block within the body, the piece is cut again):
    its texts and verdicts, and the diagnostics of an error inside it, of a
    body left open and of brackets nested one too deep where a piece
    starts in the body, must be the whole module's (whole_run).  With
    `codegen`, the same of pyptx-codegen's Python, which builds and prints
    such a kernel a part of its body at a time: also for a kernel whose
    Python name is not its PTX name (printed after its body too), with a
    register declared in the middle of the body and comment lines."""
    text = big_function(4000)
    if len(text) < 2 << 20:
        fail("big_function: %d bytes, too small to be cut" % len(text))
    lines = text.split("\n")
    deep = "\tmov.u32 \t%r1, " + "(" * 999 + "1" + ")" * 999 + ";"
    late = [l.replace(".entry big(", ".entry big$1(") for l in lines]
    # more declarations in a row than a piece holds: a piece starts with one
    late[len(late) // 2:len(late) // 2] = [
        "\t.reg .b32 \t%late<4>;", "// a comment line", "", "\t/* a block comment */",
        "\tmov.u32 \t%late1, %r1; // a trailing comment"] + [
        "\t.reg .b32 \t%%late_%d;" % i for i in range(1500)]
    late[2 * len(late) // 3:2 * len(late) // 3] = ["\tadd.s32 \t%late2, %late1, %r2;"]
    variants = (("fine", lines), ("middle", lines[:len(lines) // 2] +
                                  ["\tadd.s32 %r1, , %r2;"] + lines[len(lines) // 2:]),
                ("open", lines[:-2]), ("deep", lines[:len(lines) // 3] + [deep] +
                                       lines[len(lines) // 3:]), ("late", late))
    emitted = variants_as_whole(prog, work, [(n, "\n".join(ls)) for n, ls in variants],
                                ("fine", "late"), codegen)
    if emitted["fine"].stdout != text.encode():
        fail("--emit big function: not its bytes")
    if b"nested deeper" not in emitted["deep"].stderr:
        fail("deep.ptx: %r, not brackets nested too deep" % first_line(emitted["deep"].stderr))
    print("big function: %d bytes; texts, verdicts and diagnostics as the whole module's%s"
          % (len(text), ", and its Python" if codegen else ""))


def big_table(n, values=None):
    """A module holding a table of n values on one line, as cuRAND's
    precalc tables are (460 KB), then a small kernel."""
    values = values or ["%d" % (i * 37 % 256) for i in range(n)]
    return (HEAD + ".global .align 4 .b8 table[%d] = {" % n + ", ".join(values) +
            "};\n" + big_module(2)[len(HEAD):])


def case_big_table(prog, work, codegen=None):
    """pyptx-roundtrip cuts a module variable's flat list of values too,
    after a ',', where it runs on past a piece (a table of 685 KB on one
    line): texts, verdicts and diagnostics as the whole module's, for the
    table, a syntax error inside it, the list left open at the end, a
    vector and a comment inside it (no cut is made before them on that
    piece's scan), a second declarator after it (which a piece that starts
    in the list does not take: the whole module is parsed), and a value
    nested one too deep.  With `codegen`, the same of pyptx-codegen's
    Python."""
    n = 150000
    values = ["%d" % (i * 37 % 256) for i in range(n)]
    text = big_table(n, values)
    line = text.split("\n")[4]
    if len(line) < 512 << 10:
        fail("big_table: a line of %d bytes, too small to be cut" % len(line))
    at = lambda f: int(n * f)
    variants = (
        ("fine", text),
        ("middle", big_table(n, values[:at(.5)] + [""] + values[at(.5):])),
        ("open", text[:text.index(values[at(.7)] + ", ")]),
        ("vector", big_table(n, values[:at(.6)] + ["{1, 2}"] + values[at(.6):])),
        ("comment", big_table(n, values[:at(.4)] + ["/* a, b */ 3"] + values[at(.4):])),
        ("second", text.replace("};\n", "}, table2[2] = {1, 2};\n", 1)),
        ("deep", big_table(n, values[:at(.8)] + ["(" * 999 + "1" + ")" * 999] +
                           values[at(.8):])),
    )
    emitted = variants_as_whole(prog, work, variants,
                                ("fine", "vector", "comment", "second"), codegen)
    if emitted["fine"].stdout != text.encode():
        fail("--emit big table: not its bytes")
    print("big table: a line of %d bytes; texts, verdicts and diagnostics as the whole "
          "module's%s" % (len(line), ", and its Python" if codegen else ""))


# ---- truncations of real files at every statement boundary -----------------

def statement_cuts(text):
    """Byte offsets at statement boundaries (after each ';' and each line)
    and inside statements (after the first word of each line)."""
    ends, inside = set(), set()
    off = 0
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        if stripped.strip():
            ends.add(off + len(line))
            m = re.match(r"\s*\S+", stripped)
            if m and m.end() < len(stripped.rstrip()):
                inside.add(off + m.end())
        for i, c in enumerate(stripped):
            if c == ";":
                ends.add(off + i + 1)
        off += len(line)
    return sorted(ends), sorted(inside - ends)


def uncomment(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def at_boundary(text):
    """Does the text end right after a statement: a ';', or a line that is
    (or ends a header with) a brace of a body?  ({%r1} operands are not.)"""
    t = uncomment(text).rstrip()
    last = t.rsplit("\n", 1)[-1].strip()
    return t.endswith(";") or last in ("{", "}") or re.search(r"\)\s*\{$", last) is not None


def open_braces(text):
    """{ minus } outside comments and strings (a rough count for the check)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"", "", text, flags=re.S)
    return text.count("{") - text.count("}")


def case_truncations(prog, work):
    srcs = sorted(os.path.join(ROOT, "tests", "corpus", "hand", f)
                  for f in os.listdir(os.path.join(ROOT, "tests", "corpus", "hand"))
                  if f.endswith(".ptx"))
    nvcc = os.path.join(ROOT, "tests", "corpus", "nvcc")
    if os.path.isdir(nvcc):  # one nvcc -G file: .file, .loc, .section, @@DWARF-free debug info
        g = sorted(f for f in os.listdir(nvcc) if f.endswith("_G.ptx"))
        if g:
            srcs.append(os.path.join(nvcc, g[0]))
    d = os.path.join(work, "trunc")
    os.makedirs(d, exist_ok=True)
    meta = {}
    for src in srcs:
        with open(src, "rb") as f:
            data = f.read()
        text = data.decode("latin-1")
        base = os.path.basename(src)[:-4]
        ends, inside = statement_cuts(text)
        if len(ends) > 400:  # big nvcc file: every line near the start and end
            ends = ends[:200] + ends[-200:]
            inside = inside[:100] + inside[-100:]
        for kind, cuts in (("end", ends), ("mid", inside)):
            for cut in cuts:
                if cut >= len(data):
                    continue
                name = "%s.%s%06d.ptx" % (base, kind, cut)
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data[:cut])
                meta[name] = (kind, open_braces(text[:cut]), at_boundary(text[:cut]))
    p, dt = run(prog, ["--canonical", "--json", "--jobs", "2", d], timeout=1200)
    if not status_ok("--canonical over the truncations", p):
        return
    rep = json.loads(p.stdout)
    seen = 0
    unclosed_ok = 0
    for f in rep["files"]:
        name = os.path.basename(f["path"])
        seen += 1
        if f["ok"]:
            continue
        err = f["error"].split("\n", 1)[0]
        if not DIAG.match(err.encode()):
            # not a parse error: the round trip itself failed on text that parses
            fail("%s: parses but does not round-trip: %s" % (name, f["error"][:500]))
            continue
        kind, depth, boundary = meta[name]
        if kind == "end" and "unexpected end of file" not in err and "unterminated" not in err:
            fail("%s: cut at the end of a line, expected \"unexpected end of file\", got %r"
                 % (name, err))
        elif kind == "end" and depth > 0 and boundary:
            # cut at a statement boundary inside an open body: the message
            # must say the file ended, and want the '}'
            if "unexpected end of file" not in err or "'}'" not in err:
                fail("%s: unclosed body, expected \"unexpected end of file, expecting "
                     "... '}'\", got %r" % (name, err))
            else:
                unclosed_ok += 1
    if seen != len(meta):
        fail("truncations: %d files written, %d reported" % (len(meta), seen))
    print("%d truncations of %d files (%d accepted, %d unclosed bodies reported as such) "
          "in %.1f s" % (len(meta), len(srcs), rep["passed"], unclosed_ok, dt))
    # a sample through --emit: nothing on standard output on error
    for name in sorted(meta)[::50]:
        check_file(prog, os.path.join(d, name), None, cwd=d, canonical=False)


# ---- safe output and determinism --------------------------------------------

def corpora(args):
    out = [os.path.join(ROOT, "tests", "corpus")]
    if args.shared and os.path.isdir(args.shared):
        out.append(args.shared)
    elif args.shared:
        fail("shared corpus %s not found" % args.shared)
    return out


def case_emit_safe(prog, work):
    """--emit writes nothing on error, also into a file that exists."""
    for n in ("missing_brace", "nul_byte", "unterminated_comment", "binary_garbage"):
        out = os.path.join(work, n + ".out")
        with open(out, "wb") as f:
            p, _ = run(prog, ["--emit", os.path.join(HERE, n + ".ptx")], stdin=None)
            f.write(p.stdout)
        status_ok("--emit " + n, p)
        if p.returncode != 1 or os.path.getsize(out) != 0:
            fail("--emit %s: exit %d and %d bytes of output; expected 1 and none"
                 % (n, p.returncode, os.path.getsize(out)))
        # through a shell redirection as a user would
        sh = subprocess.run(["sh", "-c", '"$0" --emit "$1" > "$2"', prog,
                             os.path.join(HERE, n + ".ptx"), out], capture_output=True)
        if sh.returncode != 1 or os.path.getsize(out) != 0:
            fail("--emit %s > file: exit %d, %d bytes" % (n, sh.returncode, os.path.getsize(out)))
    # unreadable path, directory, missing file: exit 1, message, no output
    for arg in (os.path.join(work, "no-such.ptx"), work):
        p, _ = run(prog, ["--emit", arg])
        if p.returncode != 1 or p.stdout or b"error" not in p.stderr:
            fail("--emit %s: exit %d, %d bytes out, stderr %r" % (arg, p.returncode,
                                                                 len(p.stdout), p.stderr[:200]))


def case_link_loops(prog, work):
    """Links back to a directory being walked are not walked again: each
    file is listed once, with a warning per such link.  (Walking into them
    listed the files once per level, and two such links made the walk
    exponential: it never finished.)"""
    root = os.path.join(work, "loops")
    os.makedirs(os.path.join(root, "a", "b"))
    write(os.path.join(root, "a"), "x.ptx", HEAD)
    write(os.path.join(root, "a", "b"), "y.ptx", HEAD)
    os.symlink("..", os.path.join(root, "a", "b", "up"))
    os.symlink(os.path.join(root, "a"), os.path.join(root, "a", "b", "abs"))
    os.symlink(".", os.path.join(root, "a", "b", "self"))
    try:
        p, _ = run(prog, ["--json", root], timeout=60)
    except subprocess.TimeoutExpired:
        fail("a directory with links back up: no result in 60 s")
        return
    if not status_ok("link loops", p):
        return
    listed = sorted(os.path.relpath(f["path"], root) for f in json.loads(p.stdout)["files"])
    warned = p.stderr.decode(errors="replace").count("warning: a link back to a directory")
    if listed != ["a/b/y.ptx", "a/x.ptx"] or warned != 3 or p.returncode != 0:
        fail("link loops: exit %d, listed %r, %d warnings; expected 0, the two files, 3"
             % (p.returncode, listed, warned))


def case_determinism(prog, work, args):
    # the bad inputs too: each fails with its own message, so a result
    # reported under another file's path shows (--jobs takes the files
    # largest first, the report lists them in path order)
    dirs = corpora(args) + [HERE]
    outs = []
    for jobs in ("1", "3"):
        p, dt = run(prog, ["--json", "--canonical", "--jobs", jobs] + dirs, timeout=1200)
        status_ok("--json --jobs " + jobs, p)
        outs.append(p.stdout)
        print("--jobs %s: %d bytes of JSON, %.1f s" % (jobs, len(p.stdout), dt))
    if outs[0] != outs[1]:
        a, b = outs
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        fail("--json --jobs 1 and --jobs 3 differ at byte %d:\n  %r\n  %r"
             % (i, a[max(0, i - 80):i + 80], b[max(0, i - 80):i + 80]))
    else:
        try:
            rep = json.loads(outs[0])
            print("identical: %d files, %d passed" % (len(rep["files"]), rep["passed"]))
        except ValueError as e:
            fail("--json output is not JSON: %s" % e)


def case_valgrind(prog, work, args):
    vg = shutil.which("valgrind")
    if not vg:
        fail("valgrind not found (tools/setup.sh installs it)")
        return
    base = [vg, "-q", "--error-exitcode=99", "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect"]
    # the brief's exact flags are these, with a distinct error status so
    # that "valgrind found errors" (99) is told apart from "a file failed" (1)
    p = subprocess.run(base + [prog, "--canonical"] + corpora(args), capture_output=True,
                       timeout=3000)
    tail = p.stdout.decode(errors="replace").strip().splitlines()[-1:]
    print("valgrind --canonical corpora: exit %d: %s" % (p.returncode, tail))
    if p.returncode != 0:
        fail("valgrind over the corpora: exit %d\n%s" % (p.returncode,
                                                          p.stderr.decode(errors="replace")[-4000:]))
    # error paths: every committed bad case, verify and --emit
    bad = sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".ptx"))
    p = subprocess.run(base + [prog, "--canonical"] + bad, capture_output=True, timeout=600)
    if p.returncode not in (0, 1):
        fail("valgrind over tests/bad: exit %d\n%s" % (p.returncode,
                                                        p.stderr.decode(errors="replace")[-4000:]))
    for f in bad:
        p = subprocess.run(base + [prog, "--emit", f], capture_output=True, timeout=600)
        if p.returncode not in (0, 1):
            fail("valgrind --emit %s: exit %d\n%s" % (f, p.returncode,
                                                       p.stderr.decode(errors="replace")[-4000:]))
    print("valgrind over %d bad inputs: clean" % len(bad))


def regressions(prog, d):
    files = sorted(os.path.join(d, f) for f in os.listdir(d)
                   if not f.startswith(".") and not f.endswith(".md"))
    for f in files:
        check_file(prog, f, None)
    print("%d regression inputs" % len(files))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--roundtrip", required=True)
    ap.add_argument("--shared", help="the shared corpus (determinism, valgrind)")
    ap.add_argument("--codegen", help="pyptx-codegen, for the pieces case")
    ap.add_argument("--regressions", help="run every file in this directory")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("case", nargs="?")
    args = ap.parse_args()
    prog = os.path.abspath(args.roundtrip)
    work = args.work or tempfile.mkdtemp(prefix="ptx-bad.")
    os.makedirs(work, exist_ok=True)
    try:
        if args.regressions:
            regressions(prog, args.regressions)
        else:
            cases = {
                "committed": case_committed, "huge_line": case_huge_line,
                "deep_nesting": case_deep_nesting, "many_params": case_many_params,
                "2gib": case_2gib, "truncations": case_truncations,
                "emit_safe": case_emit_safe, "link_loops": case_link_loops,
                "big_function": lambda p, w: case_big_function(p, w, args.codegen and
                                                               os.path.abspath(args.codegen)),
                "big_table": lambda p, w: case_big_table(p, w, args.codegen and
                                                         os.path.abspath(args.codegen)),
                "pieces": lambda p, w: case_pieces(p, w, args.codegen and
                                                   os.path.abspath(args.codegen)),
                "determinism": lambda p, w: case_determinism(p, w, args),
                "valgrind": lambda p, w: case_valgrind(p, w, args),
            }
            if args.case not in cases:
                ap.error("case must be one of: " + ", ".join(sorted(cases)))
            cases[args.case](prog, work)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
