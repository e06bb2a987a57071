"""Shared set-up of the pyptx_c tests.  ctest (tests.cmake) gives:
PYPTX_C_PATH (the built package's directory: BUILD/python), PTX_BIN (the
build directory with the programs and libptx.a), PTX_SOURCE (the
repository), PTX_SHARED_CORPUS."""
import os
import sys

import pytest

SOURCE = os.environ.get("PTX_SOURCE", os.path.abspath(os.path.join(__file__, "../../..")))
BIN = os.environ.get("PTX_BIN", os.path.join(SOURCE, "build"))
SHARED = os.environ.get("PTX_SHARED_CORPUS", os.path.join(SOURCE, "..", "shared", "corpus"))
sys.path.insert(0, os.environ.get("PYPTX_C_PATH", os.path.join(BIN, "python")))
sys.path.insert(0, os.path.join(SOURCE, "tests", "pyptx"))     # ptxtok, harness, intrace


def ptx_files(*roots):
    out = []
    for r in roots:
        for d, dirs, names in os.walk(r):
            dirs.sort()
            out += [os.path.join(d, n) for n in sorted(names) if n.endswith(".ptx")]
    return out


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


OWN = ptx_files(os.path.join(SOURCE, "tests", "corpus"))
SHARED_FILES = ptx_files(SHARED)


@pytest.fixture(scope="session")
def corpus():
    files = OWN + SHARED_FILES
    if not SHARED_FILES:
        pytest.fail("no shared corpus at %s" % SHARED)
    return files
