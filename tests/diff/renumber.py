#!/usr/bin/env python3
"""renumber.py - rewrite a PTX file the way a recompile might, for tests.

    renumber.py labels IN OUT     rename every label consistently
    renumber.py regs IN OUT       renumber every %r<N>-style register
    renumber.py names IN OUT      rename labels, functions and parameters
    renumber.py modifier IN OUT LINE OLD NEW
                                  replace modifier .OLD by .NEW on LINE

Text-level on purpose: the rewrite must not share code with pyptx-diff,
which then has to see through it.

labels: each name defined as `name:` at the start of a line becomes
`$renamed_<k>`, numbered backwards from the last definition, and every
use of the name (branches, debug sections) follows.

names: labels as above, and every function (.entry/.func NAME) and
parameter (.param ... NAME) becomes `renamed_f<k>` / `renamed_p<k>`.

regs: for each register range declared as `.reg ... name<N>`, register
name<i> becomes name<K-i> with K = 9999, and the declared count becomes
K + 1, so both the numbering and the %r<N> counts change.
"""
import re
import sys

IDENT = r"[A-Za-z_$%][\w$]*"
LABEL_DEF = re.compile(r"^\s*(" + IDENT + r")\s*:", re.M)
FUNC_DEF = re.compile(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")
PARAM_DEF = re.compile(r"\.param((?:\s+\.\w+(?:\s+\d+)?)*)\s+([A-Za-z_$][\w$]*)")
REG_RANGE = re.compile(r"(\.reg\s+(?:\.\w+\s+)*)(" + IDENT + r")<(\d+)>")
K = 9999


def word(name):
    """A regex for name as a whole token."""
    return r"(?<![\w$%.])" + re.escape(name) + r"(?![\w$.])"


def labels(text):
    names = []
    for m in LABEL_DEF.finditer(text):
        if m.group(1) not in names:
            names.append(m.group(1))
    if not names:
        sys.exit("renumber.py: no labels")
    new = {n: "$renamed_%d" % (len(names) - k) for k, n in enumerate(names)}
    pattern = re.compile("|".join(word(n) for n in
                                  sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: new[m.group(0)], text)


def rename_all(text, names, fmt):
    """Replaces each of names (in order) by fmt % k, as whole tokens."""
    new = {n: fmt % k for k, n in enumerate(names)}
    pattern = re.compile("|".join(word(n) for n in
                                  sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: new[m.group(0)], text)


def names(text):
    funcs, params = [], []
    for m in FUNC_DEF.finditer(text):
        if m.group(1) not in funcs:
            funcs.append(m.group(1))
    for m in PARAM_DEF.finditer(text):
        if m.group(2) not in params + funcs + ["_"]:   # _: no name
            params.append(m.group(2))
    if not funcs:
        sys.exit("renumber.py: no functions")
    text = labels(text)
    if params:
        text = rename_all(text, params, "renamed_p%d")
    return rename_all(text, funcs, "renamed_f%d")


def regs(text):
    prefixes = sorted({m.group(2) for m in REG_RANGE.finditer(text)},
                      key=len, reverse=True)
    if not prefixes:
        sys.exit("renumber.py: no register ranges")
    for p in prefixes:
        if "<%d>" % (K + 1) in text:
            sys.exit("renumber.py: count collision")
    text = REG_RANGE.sub(lambda m: "%s%s<%d>" % (m.group(1), m.group(2), K + 1),
                         text)
    use = re.compile(r"(?<![\w$%.])(" + "|".join(map(re.escape, prefixes))
                     + r")(\d+)(?![\w$])")

    def renum(m):
        i = int(m.group(2))
        if i > K:
            sys.exit("renumber.py: register index too large: " + m.group(0))
        return "%s%d" % (m.group(1), K - i)
    return use.sub(renum, text)


def modifier(text, line, old, new):
    lines = text.split("\n")
    target = lines[line - 1]
    pat = re.compile(r"\." + re.escape(old) + r"(?=[.\s])")
    if not pat.search(target):
        sys.exit("renumber.py: no .%s on line %d: %r" % (old, line, target))
    lines[line - 1] = pat.sub("." + new, target, count=1)
    return "\n".join(lines)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    mode, src, dst = argv[1], argv[2], argv[3]
    with open(src, encoding="utf-8", newline="") as f:
        text = f.read()
    if mode == "labels":
        out = labels(text)
    elif mode == "names":
        out = names(text)
    elif mode == "regs":
        out = regs(text)
    elif mode == "modifier" and len(argv) == 7:
        out = modifier(text, int(argv[4]), argv[5], argv[6])
    else:
        sys.exit(__doc__)
    if out == text:
        sys.exit("renumber.py: nothing changed")
    with open(dst, "w", encoding="utf-8", newline="") as f:
        f.write(out)


if __name__ == "__main__":
    main(sys.argv)
