#!/usr/bin/env python3
"""Out of memory at every allocation through the Python API.

    python_sweep.py PYTHONPATH_DIR FILE.ptx...

pyptx_c from a -DPTX_FAULTS=ON build (its _fault_after hook): each call
below is made again and again with the library's nth allocation failing,
n = 1, 2, ... until a call makes fewer than n allocations.  Every call
must either raise MemoryError or return exactly what it returns without
failures; anything else (another exception, another result, a crash) is
a failure.  sweep.c does the same through the C API under
AddressSanitizer, which also finds leaks; this checks the extension's
side: that "out of memory" becomes MemoryError everywhere."""
import sys

sys.path.insert(0, sys.argv[1])
import pyptx_c  # noqa: E402
from pyptx_c import _core  # noqa: E402


def calls(text, other, path, other_path):
    m = pyptx_c.parse(text, name="k.ptx")
    return {
        "parse": lambda: pyptx_c.parse(text, name="k.ptx", jobs=2).emit(),
        "emit": lambda: m.emit(),
        "canonical": lambda: m.canonical(),
        "statements": lambda: [s.text for f in m.entries for s in f.instructions][:50],
        "codegen": lambda: pyptx_c.ptx_to_python(text),
        "sugar": lambda: pyptx_c.ptx_to_python(text, sugar=True, jobs=2),
        "no_debug": lambda: pyptx_c.ptx_to_python(text, sugar=True, debug=False),
        "diff": lambda: pyptx_c.diff(text, other, format="json"),
        "diff_trees": lambda: pyptx_c.diff_trees([path], [other_path], format="markdown"),
    }


def main():
    files = sys.argv[2:]
    swept, wrong = {}, {}
    for i, path in enumerate(files):
        other_path = files[(i + 1) % len(files)]
        text = open(path, encoding="utf-8", errors="surrogateescape").read()
        other = open(other_path, encoding="utf-8", errors="surrogateescape").read()
        for name, fn in calls(text, other, path, other_path).items():
            _core._fault_after(0)
            ref = fn()
            n = 1
            while True:
                _core._fault_after(n)
                try:
                    got = fn()
                except MemoryError:
                    got = MemoryError
                except Exception as e:   # noqa: BLE001 - any other is the failure
                    got = e
                made = _core._fault_count()
                _core._fault_after(0)
                if got is not MemoryError and got != ref:
                    wrong[name] = wrong.get(name, 0) + 1
                    if wrong[name] <= 3:
                        print(f"{path}: {name}: allocation {n} failing: {got!r:.200}",
                              file=sys.stderr)
                if made < n:
                    break
                swept[name] = swept.get(name, 0) + 1
                n += 1
    for name in swept:
        print(f"{name:<12} {swept[name]:6} allocations failed, {wrong.get(name, 0)} wrong")
    print(f"{len(files)} files, {sum(swept.values())} failures injected, "
          f"{sum(wrong.values())} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
