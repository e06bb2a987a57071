#!/usr/bin/env python3
"""pyptx-diff's tree mode on real trees, one case per test.

    run.py --diff PYPTX_DIFF --work DIR [--cuobjdump PATH] CASE

The trees are made at test time: triton.tar.xz (make_triton_trees.py: the
project's Triton kernels under two num_warps/num_stages policies, 102
kernels a side, autotuning variants included) and nvcc trees from
tests/corpus/nvcc (the same sources at -O3 and -G).  Cases:

  rename     a tree against a copy with every directory renamed, with and
             without the metadata: every kernel the same, exit 0
  handmade   a kernel renamed, a variant duplicated, a kernel added: each
             reported as such, the rest the same
  configs    the two Triton policies: every kernel changed and paired by
             its metadata (the variants' block sizes), exit 1
  resources  --resources on both trees: every figure of every kernel equal
             to cuobjdump -res-usage (and its SASS) on ptxas's cubin of
             the same file, spills equal to ptxas -v's
  markdown   --format markdown --fail-on spills: the kernel that spills in
             one policy and not the other heads the table, exit 3
  badinput   an unreadable file, a file that is not PTX and a kernel that
             ptxas rejects: each reported, the rest compared, exit 2
  jit        --jit on the Triton trees: every differing kernel measured by
             the CUDA driver (no spill counts: its log has none); exit 77,
             skipped, without a driver or a GPU
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_NVCC = os.path.join(HERE, "..", "..", "corpus", "nvcc")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args, want_rc=None):
    r = subprocess.run(args, capture_output=True, text=True)
    if want_rc is not None and r.returncode != want_rc:
        fail("%s: exit %d, wanted %d\n%s" % (" ".join(args), r.returncode, want_rc,
                                           r.stderr[-2000:]))
    return r


def triton_trees(work):
    root = os.path.join(work, "triton")
    if not os.path.isdir(root):
        with tarfile.open(os.path.join(HERE, "triton.tar.xz")) as t:
            t.extractall(work)
    return os.path.join(root, "a"), os.path.join(root, "b")


def nvcc_trees(work):
    """Side a: every source at -O3 for sm_90a; side b: the same at -G."""
    a, b = os.path.join(work, "nvcc", "O3"), os.path.join(work, "nvcc", "G")
    if not os.path.isdir(a):
        os.makedirs(a), os.makedirs(b)
        for f in sorted(os.listdir(CORPUS_NVCC)):
            m = re.match(r"(.*)_sm_90a(_G)?\.ptx$", f)
            if m:
                shutil.copy(os.path.join(CORPUS_NVCC, f),
                            os.path.join(b if m.group(2) else a, m.group(1) + ".ptx"))
    return a, b


def report(diff, a, b, *opts, rc=None):
    r = run([diff, "--json", *opts, a, b], rc)
    return json.loads(r.stdout), r


def kernels(rep):
    return [k for k in rep["kernels"] if k["paired_by"] != "files"]


def case_rename(a, work, diff):
    for side in triton_trees(work):
        for keep_meta in (True, False):
            copy = os.path.join(work, "renamed")
            shutil.rmtree(copy, ignore_errors=True)
            for i, d in enumerate(sorted(os.listdir(side))):
                os.makedirs(os.path.join(copy, "v%03d" % (len(os.listdir(side)) - i)))
                for f in os.listdir(os.path.join(side, d)):
                    if keep_meta or f.endswith(".ptx"):
                        shutil.copy(os.path.join(side, d, f),
                                    os.path.join(copy, "v%03d" % (len(os.listdir(side)) - i), f))
            rep, _ = report(diff, side, copy, rc=0)
            ks = kernels(rep)
            if len(ks) != 102 or any(k["status"] != "same" for k in ks):
                fail("renamed tree (meta %s): %s" % (keep_meta, rep["totals"]))
    print("ok: renamed trees are the same, with and without metadata")


def case_handmade(a, work, diff):
    ta, _ = triton_trees(work)
    hand = os.path.join(work, "hand")
    shutil.rmtree(hand, ignore_errors=True)
    shutil.copytree(ta, hand)
    dirs = sorted(os.listdir(hand))
    by_name = {}
    for d in dirs:
        for f in os.listdir(os.path.join(hand, d)):
            if f.endswith(".ptx"):
                by_name.setdefault(f[:-4], []).append(d)
    # renamed: the only-but-one row_sum variant's kernel gets another name
    d = by_name["row_sum"][0]
    p = os.path.join(hand, d, "row_sum.ptx")
    text = open(p).read().replace("row_sum", "row_total")
    os.unlink(p)
    os.unlink(os.path.join(hand, d, "row_sum.json"))
    open(os.path.join(hand, d, "row_total.ptx"), "w").write(text)
    # duplicated: a second copy of a matmul variant
    shutil.copytree(os.path.join(hand, by_name["matmul"][3]), os.path.join(hand, "zz_dup"))
    # added: a kernel of a new name
    os.makedirs(os.path.join(hand, "zz_new"))
    text = open(os.path.join(hand, by_name["vec_add"][0], "vec_add.ptx")).read()
    open(os.path.join(hand, "zz_new", "vec_sum.ptx"), "w").write(
        text.replace("vec_add", "vec_sum"))
    rep, _ = report(diff, ta, hand, rc=1)
    got = sorted((k["name"], k["status"]) for k in kernels(rep) if k["status"] != "same")
    want = sorted([("row_sum", "removed"), ("row_total", "added"), ("matmul", "added"),
                   ("vec_sum", "added")])
    if got != want:
        fail("hand-made tree: %s, wanted %s" % (got, want))
    if rep["totals"]["same"] != 101:
        fail("hand-made tree: %s same, wanted 101" % rep["totals"]["same"])
    print("ok: renamed, duplicated and added kernels are reported; 101 the same")


def case_configs(a, work, diff):
    ta, tb = triton_trees(work)
    rep, _ = report(diff, ta, tb, rc=1)
    ks = kernels(rep)
    if len(ks) != 102 or any(k["status"] != "changed" or k["paired_by"] != "metadata"
                             for k in ks):
        fail("policies: %s" % rep["totals"])
    for k in ks:   # the pair's block sizes agree
        ja, jb = (json.load(open(k[s][:-4] + ".json")) for s in ("a", "b"))
        if ja["constants"] != jb["constants"] or ja["num_warps"] == jb["num_warps"]:
            fail("%s: %s paired with %s" % (k["name"], k["a"], k["b"]))
    st = run([diff, "--stat", ta, tb], 1).stdout.splitlines()[-1]
    if "102 kernels: 0 same, 102 changed" not in st:
        fail("stat: " + st)
    print("ok: 102 variants paired by their metadata, each with its own configuration")


def res_usage(cuobjdump, cubin):
    """cuobjdump -res-usage and -sass of a cubin: {kernel: {figure: value}}
    (-sass runs the nvdisasm beside cuobjdump)."""
    out = run([cuobjdump, "-res-usage", cubin], 0).stdout
    figs, name = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            name = m.group(1)
        elif name and "REG:" in line:
            d = dict(re.findall(r"(\w+(?:\[0\])?):(\d+|UNKNOWN)", line))
            figs[name] = {"regs": int(d["REG"]),
                          "stack": None if d["STACK"] == "UNKNOWN" else int(d["STACK"]),
                          "shared": int(d["SHARED"]), "local": int(d["LOCAL"]),
                          "const": int(d.get("CONSTANT[0]", 0))}
    env = dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep + os.environ["PATH"])
    sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True,
                          env=env, check=True).stdout
    name = None
    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            name = m.group(1)
            figs.setdefault(name, {})["insts"] = 0
        elif name and re.match(r"\s*/\*[0-9a-f]{4,}\*/", line):
            figs[name]["insts"] += 1
    return figs


def ptxas_spills(log):
    out = {}
    for m in re.finditer(r"Function properties for (\S+)\n\s*\d+ bytes stack frame, (\d+) "
                         r"bytes spill stores, (\d+) bytes spill loads", log):
        out[m.group(1)] = {"spill-stores": int(m.group(2)), "spill-loads": int(m.group(3))}
    return out


def is_func(path, name):
    return re.search(r"\.func\b[^;{]*\b%s\s*\(" % re.escape(name), open(path).read()) is not None


def truth(path, work, cuobjdump, cache):
    if path not in cache:
        arch = re.search(r"\.target\s+(\w+)", open(path).read()).group(1)
        cubin = os.path.join(work, "truth.cubin")
        r = run(["ptxas", "-arch=" + arch, "-v", "-o", cubin, path], 0)
        figs = res_usage(cuobjdump, cubin)
        for k, v in ptxas_spills(r.stderr + r.stdout).items():
            figs.setdefault(k, {}).update(v)
        cache[path] = figs
    return cache[path]


def case_resources(a, work, diff):
    if not a.cuobjdump or not os.access(a.cuobjdump, os.X_OK):
        fail("no cuobjdump (tools/setup.sh installs nvidia-cuda-cuobjdump and "
             "nvidia-cuda-nvdisasm into the venv)")
    checked, cache = 0, {}
    for ta, tb in (triton_trees(work), nvcc_trees(work)):
        rep, _ = report(diff, ta, tb, "--resources", "--jobs", "2", rc=1)
        for k in kernels(rep):
            for s in ("a", "b"):
                got = k["resources"][s]
                if got is None:
                    continue
                if got["error"]:
                    fail("%s %s: %s" % (k["name"], k[s], got["error"]))
                want = truth(k[s], work, a.cuobjdump, cache).get(k["name"], {})
                if is_func(k[s], k["name"]):
                    # a .func is no kernel: cuobjdump reports it, where ptxas
                    # keeps it a function, with no registers; its spills
                    want = {f: v for f, v in want.items() if f.startswith("spill")}
                elif "regs" not in want:
                    fail("%s: a kernel not in cuobjdump's report of %s" % (k["name"], k[s]))
                for fig, v in want.items():
                    if got.get(fig) != v:
                        fail("%s %s: %s %s, cuobjdump/ptxas %s" % (k["name"], k[s], fig,
                                                                  got.get(fig), v))
                checked += 1
    if checked < 204:
        fail("only %d kernels measured" % checked)
    print("ok: %d kernels' figures equal cuobjdump -res-usage, -sass and ptxas -v" % checked)


def case_markdown(a, work, diff):
    ta, tb = triton_trees(work)
    r = run([diff, "--format", "markdown", "--fail-on", "spills", tb, ta], 3)
    rows = [l for l in r.stdout.splitlines() if l.startswith("| `")]
    if len(rows) != 102 or r.stdout.count("<details>") != 102:
        fail("markdown: %d rows, %d details" % (len(rows), r.stdout.count("<details>")))
    cells = [c.strip() for c in rows[0].split("|")]
    if "**+" not in cells[5]:
        fail("markdown: the first row is not a kernel that spills more: " + rows[0])
    starts = [r for r in rows if r.split("|")[5].strip().startswith("0 → ")]
    if not starts or rows.index(starts[0]) > 12:
        fail("markdown: no kernel that starts to spill among the first rows")
    if "regression:" not in r.stderr:
        fail("--fail-on: no regression named on stderr")
    print("ok: markdown table worst first (%s), exit 3 for the spills" % cells[1])


def case_badinput(a, work, diff):
    ta, _ = triton_trees(work)
    bad = os.path.join(work, "bad")
    shutil.rmtree(bad, ignore_errors=True)
    shutil.copytree(ta, bad)
    first = sorted(os.listdir(bad))
    os.symlink("/nonexistent/file.ptx", os.path.join(bad, first[0], "gone.ptx"))
    open(os.path.join(bad, first[1], "junk.ptx"), "w").write("this is not PTX {\n")
    p = [os.path.join(bad, first[2], f) for f in os.listdir(os.path.join(bad, first[2]))
         if f.endswith(".ptx")][0]
    text = open(p).read()
    # an instruction ptxas rejects (the parser does not check declarations)
    text = re.sub(r"(\n\s*ret;)", r"\n\tmov.u32 %undeclared, 1;\1", text, count=1)
    open(p, "w").write(text)
    r = run([diff, "--resources", "--stat", ta, bad], 2)
    if "gone.ptx" not in r.stdout or "junk.ptx:1:" not in r.stdout:
        fail("bad files not reported:\n" + r.stdout[:2000])
    if "102 kernels" not in r.stdout.splitlines()[-1]:
        fail("the rest was not compared: " + r.stdout.splitlines()[-1])
    rep, _ = report(diff, ta, bad, "--resources", rc=2)
    errs = [k for k in kernels(rep) if k.get("resources") and k["resources"]["b"] and
            k["resources"]["b"]["error"]]
    if len(errs) != 1 or "error" not in errs[0]["resources"]["b"]["error"]:
        fail("the kernel ptxas rejects: %s" % [e["name"] for e in errs])
    print("ok: unreadable, unparsable and rejected inputs reported; the rest compared")


def case_jit(a, work, diff):
    ta, tb = triton_trees(work)
    r = run([diff, "--jit", "--json", ta, tb])
    if r.returncode == 2 and re.search(r"no CUDA (driver|device)", r.stderr):
        print("skipped: " + r.stderr.strip())
        sys.exit(77)
    if r.returncode != 1:
        fail("--jit: exit %d: %s" % (r.returncode, r.stderr[-1000:]))
    n = 0
    for k in kernels(json.loads(r.stdout)):
        for s in "ab":
            got = k["resources"][s]
            if got["error"] or got.get("regs", 0) <= 0 or "insts" not in got or \
                    "spill-stores" in got:
                fail("--jit: %s %s: %s" % (k["name"], k[s], got))
            n += 1
    print("ok: %d kernel sides measured by the driver" % n)


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--diff", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cuobjdump")
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    work = os.path.join(a.work, a.case)
    os.makedirs(work, exist_ok=True)
    CASES[a.case](a, work, os.path.abspath(a.diff))


if __name__ == "__main__":
    main()
