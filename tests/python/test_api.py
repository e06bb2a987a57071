"""pyptx_c's API: exact and canonical printing on every corpus file, read
access, diff, errors with their locations, threads and leaks."""
import glob
import os
import re
import subprocess
import threading
import tracemalloc

import pytest

import pyptx_c
from conftest import BIN, SOURCE, read

PROG = {n: os.path.join(BIN, n) for n in ("pyptx-roundtrip", "pyptx-diff", "pyptx-codegen")}

SAMPLE = """\
.version 8.5
.target sm_90a
.address_size 64

.visible .entry k(
\t.param .u64 k_param_0,
\t.param .u32 k_param_1
)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<4>;
\tld.param.u32 %r1, [k_param_1];
\tsetp.lt.u32 %p1, %r1, 16;   // guard
\t@!%p1 bra $L_done;
\t{
\t\tadd.s32 %r2, %r1, 1;
\t}
$L_done:
\tret;
}
.func f() { ret; }
"""


def test_every_corpus_file_prints_back(corpus):
    bad = []
    for f in corpus:
        t = read(f)
        m = pyptx_c.parse(t, name=f)
        if m.emit() != t:
            bad.append(f + ": emit")
            continue
        canon = subprocess.run([PROG["pyptx-roundtrip"], "--emit", "--canonical", f],
                               capture_output=True, check=True).stdout
        if m.canonical().encode("utf-8", "surrogateescape") != canon:
            bad.append(f + ": canonical differs from pyptx-roundtrip's")
    assert not bad, "\n".join(bad[:20])


def test_bytes_and_str_agree():
    assert pyptx_c.parse(SAMPLE.encode()).emit() == SAMPLE


def test_read_access():
    m = pyptx_c.parse(SAMPLE, name="k.ptx")
    assert (m.filename, m.version, m.target) == ("k.ptx", "8.5", ("sm_90a",))
    assert [f.name for f in m.entries] == ["k"] and [f.name for f in m.functions] == ["f"]
    k = m.entries[0]
    assert (k.kind, k.linking, k.params, k.is_definition, k.line, k.col) == \
        ("entry", (".visible",), ["k_param_0", "k_param_1"], True, 5, 1)
    ops = [(i.opcode, i.modifiers, i.operands, i.predicate, i.negated, i.line, i.col)
           for i in k.instructions]
    assert ops == [
        ("ld", ("param", "u32"), ("%r1", "[k_param_1]"), None, False, 12, 2),
        ("setp", ("lt", "u32"), ("%p1", "%r1", "16"), None, False, 13, 2),
        ("bra", (), ("$L_done",), "%p1", True, 14, 2),
        ("add", ("s32",), ("%r2", "%r1", "1"), None, False, 16, 3),
        ("ret", (), (), None, False, 19, 2),
    ]
    kinds = [s.kind for s in k.statements]
    assert kinds == ["var", "var", "instruction", "instruction", "instruction", "block",
                     "label", "instruction"]
    blk = k.statements[5]
    assert [s.text for s in blk.statements] == ["add.s32\t%r2, %r1, 1;"]
    assert k.statements[6].name == "$L_done"
    top = m.statements
    assert [s.kind for s in top] == ["version", "target", "address_size", "function", "function"]
    assert top[3].function.name == "k" and top[0].function is None
    assert [i.opcode for i in m.instructions()] == ["ld", "setp", "bra", "add", "ret", "ret"]
    assert m.functions[0].statements[0].opcode == "ret"


def test_opcount_example_matches_c(tmp_path):
    """examples/opcount.py (ten lines of Python) prints what examples/opcount.c does."""
    exe = tmp_path / "opcount"
    subprocess.run(["cc", "-O1", "-I" + os.path.join(SOURCE, "include"), "-o", str(exe),
                    os.path.join(SOURCE, "examples", "opcount.c"), os.path.join(BIN, "libptx.a"),
                    "-liberty", "-ldl"], check=True)
    for f in sorted(glob.glob(os.path.join(SOURCE, "tests", "corpus", "nvcc", "*.ptx")))[:8]:
        want = subprocess.run([str(exe), f], capture_output=True, text=True, check=True).stdout
        got = subprocess.run([os.sys.executable, os.path.join(SOURCE, "examples", "opcount.py"), f],
                             capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONPATH=os.path.dirname(
                                 os.path.dirname(pyptx_c.__file__)))).stdout
        assert got == want, f


def test_diff_matches_the_program(tmp_path):
    a = tmp_path / "a.ptx"
    b = tmp_path / "b.ptx"
    a.write_text(SAMPLE)
    b.write_text(SAMPLE.replace("add.s32 %r2, %r1, 1", "add.s32 %r2, %r1, 2")
                 .replace("$L_done", "$L_end"))
    for flags, kw in (([], {}), (["--ignore-labels"], {"ignore_labels": True}),
                      (["--ignore-debug", "--ignore-regs"], {"ignore_debug": True, "ignore_regs": True}),
                      (["--ignore-names"], {"ignore_names": True})):
        want = subprocess.run([PROG["pyptx-diff"]] + flags + [str(a), str(b)],
                              capture_output=True, text=True).stdout
        got = pyptx_c.diff(pyptx_c.parse(a.read_text(), name=str(a)),
                           pyptx_c.parse(b.read_text(), name=str(b)), **kw)
        assert got == want, flags
    for flag, fmt in (("--stat", "stat"), ("--json", "json")):
        want = subprocess.run([PROG["pyptx-diff"], flag, str(a), str(b)],
                              capture_output=True, text=True).stdout
        got = pyptx_c.diff(pyptx_c.parse(a.read_text(), name=str(a)),
                           pyptx_c.parse(b.read_text(), name=str(b)), format=fmt)
        assert got == want, flag
    with pytest.raises(ValueError):
        pyptx_c.diff(SAMPLE, SAMPLE, format="html")
    assert pyptx_c.diff(SAMPLE, SAMPLE) == ""
    with pytest.raises(pyptx_c.PTXSyntaxError):
        pyptx_c.diff(SAMPLE, "ld.global")


def test_diff_trees_matches_the_program(tmp_path):
    """diff_trees over directories and lists: pyptx-diff's tree report in
    every format, with the figures where asked; PTXError without ptxas."""
    import tarfile
    with tarfile.open(os.path.join(SOURCE, "tests", "diff", "trees", "triton.tar.xz")) as t:
        t.extractall(tmp_path)
    a, b = tmp_path / "triton" / "a", tmp_path / "triton" / "b"
    some = sorted(str(p) for p in b.rglob("matmul.ptx"))[:3]
    for fmt in ("unified", "stat", "json", "markdown"):
        want = subprocess.run([PROG["pyptx-diff"], "--format", fmt, str(a), str(b)],
                              capture_output=True, text=True).stdout
        assert pyptx_c.diff_trees(a, b, format=fmt) == want, fmt
    lst = tmp_path / "list"
    lst.write_text("\n".join(some) + "\n")
    want = subprocess.run([PROG["pyptx-diff"], "--resources", "--json", str(a), "@" + str(lst)],
                          capture_output=True, text=True).stdout
    assert pyptx_c.diff_trees(str(a), some, format="json", resources=True) == want
    assert pyptx_c.diff_trees(a, a, format="stat").endswith("102 same, 0 changed, 0 added, 0 removed\n")
    with pytest.raises(pyptx_c.PTXError, match="no ptxas"):
        pyptx_c.diff_trees(a, some, resources=True, ptxas=str(tmp_path / "none"))
    with pytest.raises(ValueError):
        pyptx_c.diff_trees(a, b, format="html")


def test_errors_carry_the_location():
    """Every bad input of tests/bad: PTXSyntaxError at the program's file:line:col."""
    checked = 0
    for f in sorted(glob.glob(os.path.join(SOURCE, "tests", "bad", "*.ptx"))):
        expect = read(f[:-4] + ".expect").splitlines()[0]
        if expect == "accepted":
            pyptx_c.parse(read(f), name=os.path.basename(f))
            continue
        m = re.match(r"^(.*):(\d+):(\d+): error: (.*)$", expect)
        with pytest.raises(pyptx_c.PTXSyntaxError) as ei:
            pyptx_c.parse(open(f, "rb").read(), name=os.path.basename(f))
        e = ei.value
        assert isinstance(e, SyntaxError)
        assert (e.filename, e.lineno, e.msg) == (m.group(1), int(m.group(2)), m.group(4)), f
        assert e.text is not None and 1 <= e.offset <= len(e.text) + 1, f
        checked += 1
    assert checked >= 10


def test_error_caret():
    with pytest.raises(pyptx_c.PTXSyntaxError) as ei:
        pyptx_c.parse(".version 8.0\n.target sm_90\n.entry k() { add.s32 %r1, ; }\n",
                      name="bad.ptx")
    e = ei.value
    assert (e.filename, e.lineno, e.offset, e.text) == \
        ("bad.ptx", 3, 27, ".entry k() { add.s32 %r1, ; }")
    assert e.text[e.offset - 1] == ";"


def test_bad_arguments():
    with pytest.raises(TypeError):
        pyptx_c.parse(12)
    with pytest.raises(ValueError):
        pyptx_c.ptx_to_python(SAMPLE, sugar="no_such_pass")
    with pytest.raises(TypeError):
        pyptx_c.ptx_to_python(SAMPLE, True)     # keyword-only, as pyptx's


def test_jobs_change_nothing():
    # 5000 kernels, 1.2 MB: large enough to be cut into pieces
    kernel = SAMPLE.split(".visible", 1)[1].split(".func", 1)[0]
    head = SAMPLE.split(".visible", 1)[0]
    text = head + "".join(".visible" + kernel.replace(" k(", " k%d(" % i)
                          .replace("k_param_", "k%d_param_" % i) for i in range(5000))
    assert len(text) > 2 * 512 * 1024
    one = pyptx_c.parse(text)
    four = pyptx_c.parse(text, jobs=4)
    assert four.emit() == text and four.canonical() == one.canonical()
    # one job translates it a piece at a time, four take it whole
    assert pyptx_c.ptx_to_python(text, jobs=4) == pyptx_c.ptx_to_python(text)
    at = text.rindex("\tret;")
    bad = text[:at] + "\tadd.s32 %r1, , %r2;\n" + text[at:]
    errors = []
    for jobs in (1, 64):
        with pytest.raises(pyptx_c.PTXSyntaxError) as e:
            pyptx_c.ptx_to_python(bad, jobs=jobs)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "line %d)" % (text[:at].count("\n") + 1) in errors[0]
    assert pyptx_c.ptx_to_python(text, sugar=True, jobs=4) == \
        pyptx_c.ptx_to_python(text, sugar=True)
    other = text.replace("k7(", "k7x(").replace("k9_param_0", "k9_param_9")
    for fmt in ("unified", "json"):
        assert pyptx_c.diff(one, other, format=fmt, jobs=16) == \
            pyptx_c.diff(one, other, format=fmt, jobs=1) != ""
    with pytest.raises(ValueError):
        pyptx_c.parse(text, jobs=0)
    with pytest.raises(ValueError):
        pyptx_c.diff(text, text, jobs=0)
    with pytest.raises(TypeError):
        pyptx_c.parse(text, "name", 4)     # keyword-only


def test_four_threads_parse_at_once(corpus):
    files = corpus[::7][:40]
    texts = [read(f) for f in files]
    errors = []

    def work(k):
        try:
            for _ in range(3):
                for t in texts[k::4]:
                    m = pyptx_c.parse(t)
                    assert m.emit() == t
                    m.canonical()
                    assert pyptx_c.ptx_to_python(t, sugar=True)
        except BaseException as e:     # pragma: no cover - reported below
            errors.append(repr(e))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def _rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_no_leaks_over_10000_cycles():
    def cycle():
        m = pyptx_c.parse(SAMPLE)
        m.emit()
        [i.operands for i in m.instructions()]
        try:
            pyptx_c.parse(SAMPLE.replace("ret;", "ret", 1))
        except pyptx_c.PTXSyntaxError:
            pass
    for _ in range(500):           # warm up caches and free lists
        cycle()
    tracemalloc.start()
    rss0 = _rss_kb()
    snap0 = tracemalloc.take_snapshot()
    for _ in range(10000):
        cycle()
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap0, "filename"))
    tracemalloc.stop()
    assert grown < 64 * 1024, "Python objects grew by %d bytes" % grown
    assert _rss_kb() - rss0 < 4096, "RSS grew by %d KB" % (_rss_kb() - rss0)
