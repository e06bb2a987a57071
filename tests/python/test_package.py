"""The distribution: a wheel and an sdist built from this tree, each
installed into a fresh venv, where the scripts and the API must work.  The
sdist is built on a machine that lacks re2c and bison (CMake is told to
ignore the directories that hold them), and its generated sources are
checked for staleness.  Needs PyPI (pip fetches scikit-build-core for the
sdist's isolated build, as a user's pip does)."""
import os
import re
import subprocess
import sys
import tarfile
import venv

import pytest

from conftest import SOURCE

SAMPLE = (".version 8.0\n.target sm_80\n.address_size 64\n\n"
          ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n"
          "\tld.param.u64 %rd1, [p];\n\tret;\n}\n")
HIDDEN = "/usr/bin;/bin;/usr/local/bin;/usr/sbin;/sbin"   # where re2c and bison live


def version():
    with open(os.path.join(SOURCE, "include", "ptx", "ptx.h")) as f:
        return re.search(r'#define PTX_VERSION_STRING "([^"]+)"', f.read()).group(1)


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    assert r.returncode == 0, "%s\n%s\n%s" % (args, r.stdout[-3000:], r.stderr[-3000:])
    return r


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    d = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps",
         "-w", str(d), SOURCE])
    run(["bash", os.path.join(SOURCE, "tools", "make-sdist.sh"), str(d), sys.executable])
    wheel = [f for f in os.listdir(d) if f.endswith(".whl")]
    sdist = [f for f in os.listdir(d) if f.endswith(".tar.gz")]
    assert len(wheel) == 1 and len(sdist) == 1
    return d / wheel[0], d / sdist[0]


def fresh_venv(path):
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return os.path.join(path, "bin")


def works(bindir, tmp):
    """The installed programs and API, in a venv that has nothing else."""
    ptx = os.path.join(tmp, "k.ptx")
    with open(ptx, "w") as f:
        f.write(SAMPLE)
    v = version()
    for prog in ("pyptx-codegen", "pyptx-roundtrip", "pyptx-diff"):
        out = run([os.path.join(bindir, prog), "--version"]).stdout
        assert out.strip() == "%s %s" % (prog, v)
    run([os.path.join(bindir, "pyptx-roundtrip"), "--canonical", ptx])
    assert run([os.path.join(bindir, "pyptx-codegen"), "--sugar", ptx]).stdout.startswith(
        "from pyptx import kernel")
    assert run([os.path.join(bindir, "pyptx-diff"), ptx, ptx]).stdout == ""
    code = r"""
import importlib.metadata, sys, pyptx_c
src = open(sys.argv[1]).read()
m = pyptx_c.parse(src, name="k.ptx")
assert m.emit() == src and [f.name for f in m.entries] == ["k"]
assert [i.opcode for i in m.instructions()] == ["ld", "ret"]
assert "def k(" in pyptx_c.ptx_to_python(src) or "KERNELS" in pyptx_c.ptx_to_python(src)
assert pyptx_c.diff(src, src) == ""
try:
    pyptx_c.parse(src.replace("ret;", "ret"), name="bad.ptx")
    raise SystemExit("no error")
except pyptx_c.PTXSyntaxError as e:
    assert (e.filename, e.lineno) == ("bad.ptx", 10), (e.filename, e.lineno)
assert pyptx_c.__version__ == importlib.metadata.version("pyptx-c") == sys.argv[2]
print("ok")
"""
    assert run([os.path.join(bindir, "python"), "-c", code, ptx, v],
               cwd=tmp).stdout.strip() == "ok"


def test_wheel_in_a_fresh_venv(dist, tmp_path):
    wheel, _ = dist
    assert wheel.name.startswith("pyptx_c-%s-" % version())
    b = fresh_venv(str(tmp_path / "venv"))
    run([os.path.join(b, "pip"), "install", "-q", "--no-index", str(wheel)])
    works(b, str(tmp_path))


def test_sdist_without_re2c_or_bison(dist, tmp_path):
    _, sdist = dist
    b = fresh_venv(str(tmp_path / "venv"))
    env = dict(os.environ, CC="/usr/bin/cc")
    r = run([os.path.join(b, "pip"), "install", "-v", str(sdist),
             "--config-settings=cmake.define.CMAKE_IGNORE_PATH=" + HIDDEN,
             "--config-settings=cmake.define.CMAKE_AR=/usr/bin/ar",
             "--config-settings=cmake.define.CMAKE_RANLIB=/usr/bin/ranlib"], env=env)
    assert "re2c or bison not found: using the generated sources in grammar/gen" in \
        r.stdout + r.stderr
    works(b, str(tmp_path))


def test_sdist_generated_sources_are_checked(dist, tmp_path):
    """The shipped lexer and parser match the grammar; edit the grammar and
    configuring fails until they are made again."""
    _, sdist = dist
    with tarfile.open(sdist) as t:
        t.extractall(tmp_path)
    src = next(p for p in tmp_path.iterdir() if p.is_dir())
    conf = ["cmake", "-S", str(src), "-B", str(tmp_path / "b"), "-DPTX_PYTHON=OFF"]
    run(conf)
    with open(src / "grammar" / "parser.y", "a") as f:
        f.write("\n/* an edit after the sdist was made */\n")
    r = subprocess.run(conf, capture_output=True, text=True)
    assert r.returncode != 0 and "grammar/gen/ is stale" in r.stderr.replace("\n", " ")
