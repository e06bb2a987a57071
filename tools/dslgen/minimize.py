"""Delta debugging over a generated program's statements:

    small = minimize(src, fails, deadline)

removes statements of the kernel (at any depth; a body left empty gets
`pass`) and unwraps compound ones (`with`, `for`, `if`: their body in
their place) while `fails(text)` still holds, chunk by chunk and then one
by one, until nothing more goes or time is up.  Python statements, not
lines: every candidate is a program that parses."""
import ast
import re
import time


def signature(cls, reason):
    """What kind of failure it is, without its line numbers and names."""
    first = reason.strip().splitlines()[0] if reason.strip() else ""
    first = re.sub(r"at token \d+ ", "", first)
    first = re.sub(r"line \d+", "line N", first)
    first = re.sub(r"%[A-Za-z_]*\d+|\$?[A-Za-z_]+_\d+|\b\d+\b", "N", first)
    if cls == "crashed":
        first = re.sub(r"'[^']*'", "'…'", first)
        first = re.split(r"\(<generated>", first)[0]
    return cls + ": " + first[:110]


def _kernel(tree):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            return node
    return None


def _lists(node):
    """Every statement list under node, outermost first."""
    out = []
    for n in ast.walk(node):
        for field in ("body", "orelse"):
            lst = getattr(n, field, None)
            if isinstance(lst, list) and lst and isinstance(lst[0], ast.stmt):
                out.append(lst)
    return out


def _text(tree):
    for lst in _lists(tree):
        if not lst:
            lst.append(ast.Pass())
    return ast.unparse(tree) + "\n"


def _try(tree, edit, fails):
    """Apply edit (which changes tree in place and returns an undo) and keep
    it if the result still fails."""
    undo = edit()
    if undo is None:
        return False
    try:
        text = ast.unparse(tree) + "\n"
        ok = fails(text)
    except (ValueError, RecursionError):
        ok = False
    if not ok:
        undo()
    return ok


def _remove(lst, i, n):
    def edit():
        if i + n > len(lst) or isinstance(lst[0], ast.Pass) and len(lst) == 1:
            return None
        cut = lst[i:i + n]
        del lst[i:i + n]
        padded = not lst
        if padded:
            lst.append(ast.Pass())

        def undo():
            if padded:
                lst.pop()
            lst[i:i] = cut
        return undo
    return edit


def _unwrap(lst, i):
    def edit():
        node = lst[i]
        inner = getattr(node, "body", None)
        if not isinstance(node, (ast.With, ast.For, ast.If)) or not inner:
            return None
        lst[i:i + 1] = inner

        def undo():
            del lst[i:i + len(inner)]
            lst.insert(i, node)
        return undo
    return edit


def minimize(src, fails, deadline=None):
    tree = ast.parse(src)
    kern = _kernel(tree)
    if kern is None:
        return src
    deadline = deadline or time.time() + 60
    progress = True
    while progress and time.time() < deadline:
        progress = False
        for lst in _lists(kern):
            n = max(len(lst) // 2, 1)
            while n >= 1 and time.time() < deadline:
                i = len(lst) - n
                while i >= 0 and time.time() < deadline:
                    if _try(tree, _remove(lst, i, n), fails):
                        progress = True
                    i -= n
                n //= 2
        for lst in _lists(kern):
            for i in range(len(lst) - 1, -1, -1):
                if time.time() >= deadline:
                    break
                if i < len(lst) and _try(tree, _unwrap(lst, i), fails):
                    progress = True
    return _text(tree)
