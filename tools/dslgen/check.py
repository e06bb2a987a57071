"""One generated program through the pipeline, in a worker that imported
pyptx once (see run.py):

    Checker(bindir).check(src) -> Result

trace the program (the original PTX), decompile it with --sugar
(pyptx_c.ptx_to_python in this process, or the pyptx-codegen program
where the build has no extension), run the Python that comes back and
compare its module with the original under the harness's sugar rule
(tests/pyptx/intrace.py: tokens equal up to one consistent renaming of
local names).  Classes: faithful, unfaithful, crashed, invalid."""
import ast
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "pyptx"))
import intrace  # noqa: E402
import ptxtok  # noqa: E402

TIMEOUT = 20


def _idiomatic():
    """tests/idiomatic/run.py, for kernel_source (the line count rule)."""
    spec = importlib.util.spec_from_file_location(
        "idiomatic_run", os.path.join(ROOT, "tests", "idiomatic", "run.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class Result:
    __slots__ = ("cls", "reason", "ptx", "py", "lines_in", "lines_out", "identical")

    def __init__(self, cls, reason="", ptx="", py=""):
        self.cls, self.reason, self.ptx, self.py = cls, reason, ptx, py
        self.lines_in = self.lines_out = 0
        self.identical = False


def reset_counters():
    """smem.alloc and smem.mbarrier number unnamed allocations from
    module-level counters: reset, each trace names them as a fresh
    process would."""
    import pyptx.smem
    pyptx.smem._smem_counter = 0
    pyptx.smem._mbar_counter = 0


def count_lines(text, name, kernel_source):
    """Lines of function `name` in text (run.py's rule: decorator included,
    blank lines and comments not)."""
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        return len(kernel_source(path, name))
    finally:
        os.unlink(path)


def decorated_name(text):
    """The kernel function of a decompiled file (run.py's rule: the last
    decorated def that is not _raw)."""
    fn = None
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.decorator_list and node.name != "_raw":
            fn = node.name
    return fn


class Checker:
    def __init__(self, bindir):
        import pyptx  # noqa: F401
        warnings.simplefilter("ignore")
        self.bindir = bindir
        self.codegen = os.path.join(bindir, "pyptx-codegen")
        self.pyptx_c = None
        if os.path.isdir(os.path.join(bindir, "python", "pyptx_c")):
            sys.path.insert(0, os.path.join(bindir, "python"))
            import pyptx_c
            self.pyptx_c = pyptx_c
        self.kernel_source = _idiomatic().kernel_source
        signal.signal(signal.SIGALRM, intrace.on_alarm)

    def trace(self, src):
        """The program's PTX, or raise."""
        ns = {"__name__": "dslgen_program"}
        reset_counters()
        signal.alarm(TIMEOUT)
        try:
            exec(compile(src, "<program>", "exec"), ns)
            return ns["KERNEL"].ptx(**ns["ARGS"])
        finally:
            signal.alarm(0)

    def decompile(self, ptx):
        if self.pyptx_c is not None:
            signal.alarm(TIMEOUT)
            try:
                return self.pyptx_c.ptx_to_python(ptx, sugar=True)
            finally:
                signal.alarm(0)
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write(ptx)
        try:
            r = subprocess.run([self.codegen, "--sugar", f.name], capture_output=True,
                               timeout=TIMEOUT)
        finally:
            os.unlink(f.name)
        if r.returncode:
            raise RuntimeError("pyptx-codegen status %d: %s" % (
                r.returncode, r.stderr.decode("utf-8", "replace")[-300:]))
        return r.stdout.decode("utf-8")

    def check(self, src, name=None):
        try:
            ptx = self.trace(src)
        except BaseException as e:  # noqa: B036 (the program's own bug, whatever it is)
            return Result("invalid", "%s: %s" % (type(e).__name__, str(e)[:300]))
        try:
            py = self.decompile(ptx)
        except BaseException as e:  # noqa: B036
            return Result("crashed", "codegen: %s: %s" % (type(e).__name__, str(e)[:300]), ptx)
        cache = {}
        reset_counters()
        why = intrace.trace_back(py, ptx, ptxtok.tokenize(ptx), True, TIMEOUT, cache)
        if why is None:
            res = Result("faithful", "", ptx, py)
            # trace_back remembers a module it had to compare token by token
            res.identical = not cache.get("modules")
        elif why.startswith("module:") or why.startswith("entry"):
            res = Result("unfaithful", why, ptx, py)
        else:
            res = Result("crashed", why, ptx, py)
        if name:
            try:
                res.lines_in = count_lines(src, name, self.kernel_source)
                fn = decorated_name(py)
                res.lines_out = count_lines(py, fn, self.kernel_source) if fn else 0
            except SyntaxError:
                pass
        return res
