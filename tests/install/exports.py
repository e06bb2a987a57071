#!/usr/bin/env python3
"""libptx.so exports exactly the functions its public headers declare.

    exports.py LIBPTX_SO INCLUDE_DIR

A declaration is a prototype at file scope in include/ptx/*.h (comments
and macros aside, `static inline` definitions are no symbols); nm -D lists
what the library defines.  Fails on a declared function the library does
not export (a program linked against it would not link) and on an exported
symbol no header declares (an internal one leaking out: the sugar passes',
the diff's, libiberty's).
"""
import glob
import os
import re
import subprocess
import sys


def file_scope(text):
    """The text outside braces (bodies of inline functions, structs): what
    is left of a struct is its name, of a function its head."""
    out, depth = [], 0
    for c in text:
        if c == "{":
            depth += 1
            out.append(";" if depth == 1 else "")
        elif c == "}":
            depth = max(0, depth - 1)   # extern "C"'s own, its { gone
        elif depth == 0:
            out.append(c)
    return "".join(out)


def declared(include):
    names = set()
    for h in glob.glob(os.path.join(include, "ptx", "*.h")):
        text = open(h).read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
        text = file_scope(text.replace('extern "C" {', ""))
        for m in re.finditer(r"([^;{}]*?)\b(ptx_\w+)\s*\([^;{}]*\)\s*;", text):
            if not re.search(r"\b(typedef|static)\b", m.group(1)) and "(" not in m.group(1):
                names.add(m.group(2))
    return names


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.split()[1:2] != ["A"]}


def main():
    lib, include = sys.argv[1:3]
    d, e = declared(include), exported(lib)
    missing, leaked = sorted(d - e), sorted(e - d)
    for n in missing:
        print("declared, not exported: " + n)
    for n in leaked:
        print("exported, not declared: " + n)
    print("%d functions declared, %d symbols exported" % (len(d), len(e)))
    sys.exit(1 if missing or leaked else 0)


if __name__ == "__main__":
    main()
