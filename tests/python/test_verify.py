"""ptx_to_python(verify=True): traced in this interpreter by its pyptx,
every kernel gives back its PTX; a kernel that does not loses passes, its
own only, with a UserWarning.  The unfaithful pass is made so on purpose
by tests/pyptx/verify/fault.py (inject), undone after each test."""
import glob
import os
import sys
import warnings

import pytest

import intrace
import pyptx_c
from conftest import SOURCE, read

VERIFY = os.path.join(SOURCE, "tests", "pyptx", "verify")
sys.path.insert(0, VERIFY)
import fault  # noqa: E402

LOOPS = read(os.path.join(VERIFY, "loops.ptx"))
BUG = read(os.path.join(VERIFY, "repeat_bug.ptx"))


def test_fault_drops_the_pass_from_that_kernel_only(monkeypatch):
    fault.inject("loop", monkeypatch.setattr)
    with pytest.warns(UserWarning) as got:
        py = pyptx_c.ptx_to_python(LOOPS, sugar=True, verify=True)
    msgs = [str(w.message) for w in got]
    assert msgs == ["ptx_to_python(verify=True): kernel l: dropped passes loops "
                    "(traced line 10 'nop;' where the input has line 9 '@%p1 bra L;')"]
    assert 'ptx.loop("L"' not in py and 'ptx.label("L")' in py and 'ptx.loop("M"' in py
    assert intrace.trace_back(py, LOOPS, rename=True) is None


def test_nothing_dropped_is_the_sugar_output():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in [None] + sorted(glob.glob(os.path.join(SOURCE, "tests", "corpus", "hand",
                                                        "*.ptx"))):
            text = LOOPS if f is None else read(f)
            want = pyptx_c.ptx_to_python(text, sugar=True)
            assert pyptx_c.ptx_to_python(text, sugar=True, verify=True) == want, f
        assert pyptx_c.ptx_to_python(LOOPS, verify=True) == pyptx_c.ptx_to_python(LOOPS)


def test_a_sugar_bug_traces_back_verified():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        py = pyptx_c.ptx_to_python(BUG, sugar=True, verify=True, kernel_name="renamed")
        assert intrace.trace_back(py, BUG.replace(" k(", " renamed("), rename=True) is None
        py = pyptx_c.ptx_to_python(BUG, sugar="repeat,decls", verify=True)
        assert intrace.trace_back(py, BUG, rename=True) is None


def test_no_pyptx_is_an_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyptx", None)
    with pytest.raises(ImportError, match=r"^ptx_to_python\(verify=True\) needs pyptx "
                                          r"0.1.1: import pyptx failed"):
        pyptx_c.ptx_to_python(LOOPS, sugar=True, verify=True)


def test_another_pyptx_is_an_import_error(monkeypatch):
    import pyptx
    monkeypatch.setattr(pyptx, "__version__", "9.9")
    with pytest.raises(ImportError, match="needs pyptx 0.1.1: found pyptx 9.9"):
        pyptx_c.ptx_to_python(LOOPS, verify=True)


def test_nothing_traces_back_is_a_ptx_error(monkeypatch):
    fault.inject("ret", monkeypatch.setattr)
    with pytest.raises(pyptx_c.PTXError, match="not even plain mode traces back"):
        pyptx_c.ptx_to_python(LOOPS, sugar=True, verify=True)


def test_errors_of_the_source_come_first():
    with pytest.raises(pyptx_c.PTXSyntaxError):
        pyptx_c.ptx_to_python(".version 8.5\n.entry k( {", verify=True)
