"""A stand-in for `python` in the --verify tests: the interpreter running
this file, with pyptx made to trace one construct wrong, as a sugar pass
that is unfaithful on an input nobody tried makes it look to --verify.

    PY fault.py -c CODE ARG...       what `PY -c CODE ARG...` does
    PY fault.py FILE.py              what `PY FILE.py` does

The fault, by $VERIFY_FAULT:
    loop  (default) `with ptx.loop("L", ...)` traces one nop more: the
          "loops" pass is unfaithful on a loop labelled L, and only there
    raise `with ptx.loop("L", ...)` raises while tracing
    ret   every traced kernel holds one ret more: not even plain mode
          traces back

The fault lives here, in the tests, and not in the program or the
library: what --verify runs is the real checker under a real pyptx, and
the shipped code has no hook for tests.  test_verify.py applies the same
faults in-process (inject()).
"""
import contextlib
import os
import runpy
import sys


def faulty_loop(loop, raises=False):
    """ptx.loop, with one nop more inside a loop labelled L (or raising
    there)."""
    @contextlib.contextmanager
    def wrapped(label_name, **kw):
        from pyptx import ptx
        if raises and label_name == "L":
            raise RuntimeError('fault.py: ptx.loop("L")')
        with loop(label_name, **kw):
            if label_name == "L":
                ptx.inst.nop()
            yield
    return wrapped


def faulty_ptx(ptx_method):
    """Kernel.ptx, with each `ret;` doubled."""
    def wrapped(self, *a, **kw):
        return ptx_method(self, *a, **kw).replace("\tret;", "\tret;\n\tret;")
    return wrapped


def inject(fault, setattr_=setattr):
    """Apply `fault` ("loop", "raise", "ret") to the pyptx imported; setattr_ may
    be pytest's monkeypatch.setattr, to undo it after a test."""
    from pyptx import ptx
    from pyptx.kernel import Kernel
    if fault in ("loop", "raise"):
        setattr_(ptx, "loop", faulty_loop(ptx.loop, fault == "raise"))
    elif fault == "ret":
        setattr_(Kernel, "ptx", faulty_ptx(Kernel.ptx))
    else:
        raise SystemExit("fault.py: unknown fault %r" % fault)


def main():
    inject(os.environ.get("VERIFY_FAULT", "loop"))
    if sys.argv[1:2] == ["-c"]:
        code = sys.argv[2]
        sys.argv = ["-c"] + sys.argv[3:]
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
