"""Does generated pyptx Python trace back to its PTX?  And, kernel by
kernel, the most sugared form that does (pyptx-codegen --verify,
pyptx_c.ptx_to_python(verify=True)).

One file, the standard library only (pyptx itself is imported only to
trace), because three users load it three ways: the pyptx_c package
imports it; pyptx-codegen carries its text, embedded at build time, and
runs it as `python -c TEXT serve ...` (serve(): a worker that asks the
program for each candidate it tries, so that pyptx, slow to import, is
imported once); and the tests' harness (tests/pyptx/harness.py,
ptxtok.py) loads it by path for its token rules, so that the rules the
tests apply and the rules users get are one copy.

The rules: tokens ignore whitespace and comments (tokenize).  A generated
file's kernels are the pyptx Kernels it defines, by PTX entry name, and
its module is module_ptx() where defined, else what it prints as a script
(Generated: the one reader of generated files, which the tests use too).
A kernel traces back when its ptx() holds an .entry of its name whose
tokens equal the input entry's up to one consistent renaming of local
names (labels, parameters, registers: compare, local_names); the module
traces back when its text does, token for token, under the same rule.
"""
import functools
import re
import sys

# ---- tokens ------------------------------------------------------------------

# Alternatives are tried in order.  word, the most frequent kind, comes
# second: its first character begins no other kind but punct, the last, so
# its place changes no token.
_TOKEN_RE = re.compile(r"""
  (?P<ws>[ \t\r\f\v]+)
| (?P<word>[A-Za-z_$%][\w$]*(?:(?:\.|::)[\w$]+)*)
| (?P<nl>\n)
| (?P<lc>//[^\n]*)
| (?P<bc>/\*.*?\*/)
| (?P<str>"(?:[^"\\\n]|\\.)*")
| (?P<dwarf>@@DWARF[^\n]*)
| (?P<pp>\#[^\n]*)
| (?P<num>0[fF][0-9a-fA-F]{8}(?![\w$])
        |0[dD][0-9a-fA-F]{16}(?![\w$])
        |0[xX][0-9a-fA-F]+[uU]?
        |0[bB][01]+[uU]?
        |\d+\.\d*(?:[eE][+-]?\d+)?
        |\.\d+(?:[eE][+-]?\d+)?
        |\d+[eE][+-]?\d+
        |\d[\w$]*)
| (?P<dot>\.[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*)
| (?P<op><<|>>|<=|>=|==|!=|&&|\|\|)
| (?P<punct>.)
""", re.X | re.S)


def tokenize(text, spans=False):
    """Return a list of (token_text, line_number) for PTX source text;
    with spans=True, (token_text, line_number, start, end) byte offsets."""
    out = []
    append = out.append
    line = 1
    # every character starts a match (punct takes any other), so the
    # matches cover the text: an unterminated /* or string is punctuation
    for mo in _TOKEN_RE.finditer(text):
        kind = mo.lastgroup
        if kind == "ws" or kind == "lc":
            continue
        if kind == "nl":
            line += 1
            continue
        s = mo.group()
        if kind == "bc":
            line += s.count("\n")
            continue
        append((s, line, mo.start(), mo.end()) if spans else (s, line))
    return out


def texts(tokens):
    return [t[0] for t in tokens]


def find_entries(tokens):
    """Find .entry definitions.

    Returns a list of dicts {name, start, end, body_start} where
    tokens[start] is the `.entry` keyword and tokens[end-1] is the `}` that
    closes the body (declarations without a body are skipped).  The linking
    directive in front of `.entry` (.visible/.weak/.extern) is NOT part of the
    span.
    """
    res = []
    i = 0
    n = len(tokens)
    while i < n:
        if tokens[i][0] != ".entry":
            i += 1
            continue
        start = i
        name = tokens[i + 1][0] if i + 1 < n else ""
        j = i + 2
        depth = 0
        # skip to the body '{' or a terminating ';' at paren depth 0
        while j < n:
            t = tokens[j][0]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif depth == 0 and t in ("{", ";"):
                break
            j += 1
        if j >= n or tokens[j][0] == ";":
            i = j + 1
            continue
        body_start = j
        depth = 0
        while j < n:
            t = tokens[j][0]
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        end = min(j + 1, n)
        res.append({"name": name, "start": start, "end": end,
                    "body_start": body_start})
        i = end
    return res


# ---- local names and the comparison -------------------------------------------
# Non-dotted special registers: never renamed in sugar mode.
_SPECIAL_RE = re.compile(
    r"%(laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64|clock_hi|"
    r"globaltimer|globaltimer_lo|globaltimer_hi|lanemask_(eq|le|lt|ge|gt)|"
    r"pm[0-7](_64)?|envreg\d+|total_smem_size|aggr_smem_size|"
    r"dynamic_smem_size|current_graph_exec|cluster_ctarank|cluster_nctarank|"
    r"is_explicit_cluster|reserved_smem_offset_\w+|tid|ntid|ctaid|nctaid|"
    r"clusterid|nclusterid|cluster_ctaid|cluster_nctaid)$")
_WORD_RE = re.compile(r"[A-Za-z_$%][\w$]*$")
_DECL_DIRS = {".reg", ".shared", ".local", ".param", ".const", ".global",
              ".shared::cta", ".shared::cluster"}


@functools.lru_cache(maxsize=1 << 16)   # tokens repeat: registers, opcodes
def _is_word(t):
    return bool(_WORD_RE.match(t)) and t != "_"


@functools.lru_cache(maxsize=1 << 16)
def _is_local_reg(t):
    return t.startswith("%") and _is_word(t) and not _SPECIAL_RE.match(t)


def local_names(toks):
    """Names a sugar-mode generator may rename: labels, parameters,
    registers and names declared inside function bodies."""
    names = set()
    texts = [t for t, _ in toks]
    n = len(texts)
    depth = 0
    i = 0
    while i < n:
        t = texts[i]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif _is_local_reg(t):
            names.add(t)
        elif (_is_word(t) and i + 1 < n and texts[i + 1] == ":"
              and (i == 0 or texts[i - 1] in (";", "{", "}", ":"))):
            names.add(t)                         # label definition
        elif t in (".entry", ".func"):
            # parameter lists: (...) [name] (...)
            j = i + 1
            while j < n and texts[j] not in ("{", ";"):
                if texts[j] == "(":
                    k = j + 1
                    last = None
                    bdepth = 0
                    while k < n and texts[k] != ")":
                        x = texts[k]
                        if x == "[":
                            bdepth += 1
                        elif x == "]":
                            bdepth -= 1
                        elif x == "," and bdepth == 0:
                            if last:
                                names.add(last)
                            last = None
                        elif bdepth == 0 and _is_word(x):
                            last = x
                        k += 1
                    if last:
                        names.add(last)
                    j = k
                j += 1
            i = j
            continue
        elif depth > 0 and t in _DECL_DIRS and (i == 0 or texts[i - 1] in (";", "{", "}")):
            # declaration statement inside a body: first word of each declarator
            j = i + 1
            want = True
            bdepth = 0
            while j < n and texts[j] != ";":
                x = texts[j]
                if x in ("[", "<", "{", "("):
                    bdepth += 1
                elif x in ("]", ">", "}", ")"):
                    bdepth -= 1
                elif x == "," and bdepth == 0:
                    want = True
                elif x == "=":
                    want = False
                elif want and bdepth == 0 and _is_word(x):
                    names.add(x)
                    want = False
                j += 1
            i = j
            continue
        i += 1
    return names


def compare(a, b, rename=False, a_local=(), b_local=(), fixed=()):
    """Compare token lists a (input) and b (output).

    Returns None when equal, else (index, message).  With rename=True the
    names in a_local (declared by the input) and b_local (by the output)
    may be renamed, under one bijection built while walking both lists:
    every occurrence of a name, wherever it stands (a debug section, a
    string of raw text), must map the same way.  So a name the output
    renamed in its declaration but left spelled the old way elsewhere is a
    reference that resolves to nothing, and fails.  Names in `fixed` and
    all other tokens must be equal."""
    fwd, bwd = {}, {}
    n = min(len(a), len(b))
    for i in range(n):
        x, y = a[i][0], b[i][0]
        if (rename and (x in a_local or y in b_local)
                and x not in fixed and y not in fixed):
            fx, by = fwd.get(x), bwd.get(y)
            if fx is None and by is None:
                if x == y or (x in a_local and y in b_local):
                    fwd[x], bwd[y] = y, x
                    continue
                return i, "token differs"
            if fx == y and by == x:
                continue
            why = ("inconsistent renaming: %r was mapped to %r" % (x, fx)
                   if fx is not None and fx != y else
                   "inconsistent renaming: %r is already the image of %r" % (y, by))
            return i, why
        if x != y:
            return i, "token differs"
    if len(a) != len(b):
        return n, "input has more tokens" if len(a) > len(b) else "output has more tokens"
    return None


def fmt_diff(a, b, where, what_out):
    i, why = where
    ta = "line %d: %r" % (a[i][1], a[i][0]) if i < len(a) else "end of input"
    tb = "line %d: %r" % (b[i][1], b[i][0]) if i < len(b) else "end of output"
    ctx_a = " ".join(t for t, _ in a[max(0, i - 3):i + 3])
    ctx_b = " ".join(t for t, _ in b[max(0, i - 3):i + 3])
    return ("first difference at token %d (%s): input %s vs %s %s\n"
            "      input : ... %s ...\n      output: ... %s ..."
            % (i, why, ta, what_out, tb, ctx_a, ctx_b))


# pyptx.types scalar types: the only parameter types raw_params can write.
_PYPTX_TYPES = {"b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
                "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2",
                "tf32", "f32", "f64", "e4m3", "e5m2", "pred"}


def verify_unsupported(etoks, reason):
    """Is `reason` (from the generated UNSUPPORTED dict) true of the input
    entry tokens etoks (from `.entry` to `}`)?  Returns None when verified,
    else why not.  Known reasons: no parameter list; a parameter that is not
    `.param [.align N] .<pyptx scalar type> ...`."""
    texts = [t for t, _ in etoks]
    if reason.startswith("no parameter list"):
        return None if texts[2:3] != ["("] else "the entry has a parameter list"
    m = re.match(r'parameter "([^"]+)"', reason)
    if not m:
        return "reason not recognised by the harness"
    if texts[2:3] != ["("]:
        return "the entry has no parameter list"
    params, cur, depth = [], [], 0
    for x in texts[3:]:
        if x == ")" and depth == 0:
            break
        depth += x in "([{"
        depth -= x in ")]}"
        if x == "," and depth == 0:
            params.append(cur)
            cur = []
        else:
            cur.append(x)
    params.append(cur)
    for p in params:
        if m.group(1) not in p:
            continue
        k = 1 if p[:1] == [".param"] else None
        if k is not None and p[k:k + 1] == [".align"] and re.match(r"(0|[1-9][0-9]*)$", p[k + 1]):
            k += 2
        if k is None or p[k][:1] != "." or p[k][1:] not in _PYPTX_TYPES:
            return None
        return "parameter %s is .param [.align N] .%s, which raw_params can write" % (
            m.group(1), p[k][1:])
    return "no parameter named %s" % m.group(1)




# ---- tracing -------------------------------------------------------------------

PYPTX_VERSION = "0.1.1"


class PyptxMissing(ImportError):
    """No pyptx 0.1.1 to trace with (its message says what was found)."""


def require_pyptx(who=None):
    """Import pyptx, or raise PyptxMissing saying why not (after "WHO
    needs pyptx 0.1.1: " where `who` is given)."""
    why = None
    try:
        import pyptx
        v = getattr(pyptx, "__version__", None)
        if v != PYPTX_VERSION:
            why = "found pyptx %s (%s)" % (v, getattr(pyptx, "__file__", "?"))
    except Exception as e:  # an ImportError, or a broken install's own
        why = "import pyptx failed: %s: %s" % (type(e).__name__, e)
    if why is not None:
        raise PyptxMissing(why if who is None else "%s needs pyptx %s: %s"
                           % (who, PYPTX_VERSION, why))
    return pyptx


def _exc(e):
    """An exception as one line: its type and first line."""
    msg = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, msg[0][:200] if msg else "")


# ---- the generated file -------------------------------------------------------
# The one rule by which every checker reads a generated file: its kernels
# are the pyptx Kernel objects it defines, by the PTX entry name each
# traces (the traced function's __name__), in the order defined; its
# module is module_ptx() where the file defines it, else what the file
# prints when run as a script.  Plain files define KERNELS and module_ptx()
# too; readable ones (--sugar) only what their module needs.


def _is_main_guard(node):
    """`if __name__ == "__main__":` at the top level."""
    import ast
    t = node.test if isinstance(node, ast.If) else None
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name)
            and t.left.id == "__name__" and len(t.comparators) == 1
            and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == "__main__")


def kernels_of(ns):
    """{PTX entry name: Kernel} of the pyptx Kernels in the namespace
    `ns`, in the order they were bound (each once)."""
    from pyptx.kernel import Kernel
    out, seen = {}, set()
    for v in list(ns.values()):
        if isinstance(v, Kernel) and id(v) not in seen:
            seen.add(id(v))
            out[getattr(v._fn, "__name__", "?")] = v
    return out


def _memo(k):
    """k.ptx() traced once: the __main__ block and the checks share it."""
    trace_ = k.ptx
    done = []

    def ptx(**kw):
        if kw:
            return trace_(**kw)
        if not done:
            done.append(trace_())
        return done[0]
    k.ptx = ptx


class Generated:
    """A generated file run in a fresh module (what precedes its __main__
    block, as importing it runs): `ns`, `kernels` (kernels_of, each traced
    at most once), `unsupported` (its UNSUPPORTED, or {}); module() gives
    the module text."""

    def __init__(self, py, filename="<generated>", name="pyptx_generated"):
        import ast
        import types
        tree = ast.parse(py, filename)
        at = next((i for i, n in enumerate(tree.body) if _is_main_guard(n)), len(tree.body))
        self.module_obj = types.ModuleType(name)
        self.module_obj.__file__ = filename
        self.ns = self.module_obj.__dict__
        self._main = ast.Module(body=tree.body[at:], type_ignores=[])
        self._file = filename
        exec(compile(ast.Module(body=tree.body[:at], type_ignores=[]), filename, "exec"),
             self.ns)
        self.kernels = kernels_of(self.ns)
        for k in self.kernels.values():
            _memo(k)
        self.unsupported = dict(self.ns.get("UNSUPPORTED", {}))

    def module(self):
        """module_ptx() where defined, else what the rest of the file, from
        its __main__ block on, prints to stdout as a script (bytes read as
        UTF-8 with surrogate escapes, as the file writes them)."""
        import io
        mp = self.ns.get("module_ptx")
        if callable(mp):
            return mp()
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8",
                               errors="surrogateescape", newline="\n")
        old, self.ns["__name__"] = sys.stdout, "__main__"
        sys.stdout = out
        try:
            exec(compile(self._main, self._file, "exec"), self.ns)
            out.flush()
            return out.buffer.getvalue().decode("utf-8", "surrogateescape")
        finally:
            sys.stdout = old
            self.ns["__name__"] = self.module_obj.__name__


def trace(py, want=None, module=True):
    """Run the generated file `py` (Generated) and trace its kernels:
    {"error": why} when the file itself does not run, else {"kernels":
    {name: ptx text or an exception}, "unsupported": {...}, "module": text
    or an exception}, tracing only the kernels named in `want` when it is
    not None, and the module only if `module`.  pyptx's warnings (an
    instruction it has no spec for) are not the caller's: they are
    ignored, as the tests' harness does, even where the caller makes
    warnings errors."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            g = Generated(py, name="pyptx_verified")
        except Exception as e:
            return {"error": "the generated file raised " + _exc(e)}
        res = {"kernels": {}, "unsupported": g.unsupported}
        for name, k in g.kernels.items():
            if want is None or name in want:
                res["kernels"][name] = _trace_one(k)
        if module:
            try:
                res["module"] = g.module()
            except Exception as e:
                res["module"] = e
    return res


def _trace_one(k):
    """k.ptx(), or the exception it raised."""
    try:
        return k.ptx()
    except Exception as e:
        return e


# ---- checking ------------------------------------------------------------------

class Source:
    """The input PTX: its tokens, entries and local names, made once.
    `renamed`: the kernels may have other PTX names (--name,
    --rename-kernels), so the kernels are paired with the entries in order."""

    def __init__(self, text, renamed=False):
        self.text = text
        self.lines = text.split("\n")
        self.toks = tokenize(text)
        self.entries = find_entries(self.toks)
        self.local = local_names(self.toks)
        self.fixed = {e["name"] for e in self.entries}
        self.renamed = renamed


def _line(lines, toks, i):
    if i >= len(toks):
        return "the end"
    n = toks[i][1]
    return "line %d %r" % (n, lines[n - 1].strip()[:160] if n <= len(lines) else "")


def diff_line(a, a_lines, b, b_lines, where):
    """compare's answer (`where`, on input tokens a of the lines a_lines
    and traced tokens b of b_lines) as one line: the first line of the
    trace that differs, and the input's line there."""
    i, why = where
    s = "traced %s where the input has %s" % (_line(b_lines, b, i), _line(a_lines, a, i))
    return s if why == "token differs" else s + " (%s)" % why


def _pairs(src, res):
    """(entry index, kernel name) for each input entry pyptx can express."""
    unsup = res["unsupported"]
    todo = [i for i, e in enumerate(src.entries) if e["name"] not in unsup]
    if not src.renamed:
        return [(i, src.entries[i]["name"]) for i in todo]
    return list(zip(todo, list(res["kernels"])))


def check_entry(src, i, name, got):
    """None if the kernel `name`, traced to `got` (text or exception),
    gives back input entry i, else why not."""
    if got is None:
        return "no kernel %r" % name
    if isinstance(got, BaseException):
        return "tracing raised " + _exc(got)
    e = src.entries[i]
    kt = tokenize(got)
    ke = [x for x in find_entries(kt) if x["name"] == name]
    if len(ke) != 1:
        return "the trace holds %d entries named %r" % (len(ke), name)
    a = src.toks[e["start"]:e["end"]]
    b = kt[ke[0]["start"]:ke[0]["end"]]
    if name != e["name"]:
        b[1] = (e["name"], b[1][1])
    d = compare(a, b, True, src.local, local_names(kt), src.fixed)
    return None if d is None else diff_line(a, src.lines, b, got.split("\n"), d)


def check(src, py, want=None):
    """Trace `py`: (reasons, module) where reasons[i] is None when entry i
    traces back, else why not (only entries in `want`, when given, are
    traced: the others are None), and module is None when module_ptx()
    gives back the input (not checked with `want`), else (entry index or
    None, why): the entry where the first difference lies."""
    names = None if want is None or src.renamed else {src.entries[i]["name"] for i in want}
    res = trace(py, names, module=want is None)
    n = len(src.entries)
    if "error" in res:   # every kernel's fault, as far as can be told
        return [res["error"]] * n, None
    reasons = [None] * n
    pairs = _pairs(src, res)
    for i, name in pairs:
        if want is None or i in want:
            reasons[i] = check_entry(src, i, name, res["kernels"].get(name))
    for i, e in enumerate(src.entries):
        why = res["unsupported"].get(e["name"])
        if why is not None and verify_unsupported(src.toks[e["start"]:e["end"]], why):
            reasons[i] = "UNSUPPORTED says %r, which is not so" % why
    if want is not None:
        return reasons, None
    return reasons, check_module(src, res, pairs)


def check_module(src, res, pairs):
    m = res["module"]
    if isinstance(m, BaseException):
        return None, "the module raised " + _exc(m)
    mt = tokenize(m)
    back = {name: src.entries[i]["name"] for i, name in pairs if name != src.entries[i]["name"]}
    if back:
        mt = [(back.get(t, t), ln) for t, ln in mt]
    d = compare(src.toks, mt, True, src.local, local_names(mt), src.fixed)
    if d is None:
        return None
    at = [i for i, e in enumerate(src.entries) if e["start"] <= d[0] < e["end"]]
    why = diff_line(src.toks, src.lines, mt, m.split("\n"), d)
    return (at[0] if at else None), "the module " + why


# ---- the search ----------------------------------------------------------------

class NotFaithful(ValueError):
    """Not even plain mode traces back (a bug of the generator's, not sugar's)."""


def _drop_one(src, gen, masks, left, bits):
    """Each kernel in `left` without one pass: of the passes whose loss
    makes it trace back, the one whose candidate file is shortest (the
    most sugar kept; the first in the order the passes run on a tie).
    One candidate file per pass, each trying that pass's loss on every
    kernel at once.  Returns the kernels that no loss made trace back."""
    best = {}
    for b in bits:
        trial = list(masks)
        for i in left:
            trial[i] &= ~b
        py = gen(trial)
        lines = py.count("\n")
        reasons, _ = check(src, py, set(left))
        for i in left:
            if reasons[i] is None and lines < best.get(i, (lines + 1,))[0]:
                best[i] = (lines, trial[i])
    for i, (_, m) in best.items():
        masks[i] = m
    return set(left) - set(best)


def _add_back(src, gen, masks, left, bits):
    """Kernels in `left` from plain mode up: each pass in turn, kept where
    the kernel still traces back with it."""
    for i in left:
        masks[i] = 0
    for b in bits:
        trial = list(masks)
        for i in left:
            trial[i] |= b
        reasons, _ = check(src, gen(trial), left)
        for i in left:
            if reasons[i] is None:
                masks[i] = trial[i]


def _failing(reasons, module, why):
    """The kernels to blame, their reasons noted in `why`; None when only
    the module fails, where no kernel lies (a kernel that fails fails
    module_ptx() too: the kernel is to blame then)."""
    bad = {i for i, r in enumerate(reasons) if r}
    for i in bad:
        why.setdefault(i, reasons[i])
    if module is not None:
        if module[0] is None:
            return bad or None
        bad.add(module[0])
        why.setdefault(module[0], module[1])
    return bad


def search(text, gen, passes, sugar, renamed=False):
    """The most sugared Python of the PTX `text` that traces back.

    gen(masks) generates it with masks[i] the sugar passes of entry i
    (bit j: passes[j]), or in plain mode when masks is None; `sugar` is the
    passes asked for.  Kernels that do not trace back with all of them
    lose one pass (_drop_one), else as many as they must (_add_back); the
    result is checked again as a whole.  Returns (py, notes): notes holds
    "kernel NAME: dropped passes a,b (why)" for each kernel that lost
    some, and "module: ..." when the module needed plain mode.  Raises
    NotFaithful when not even plain mode traces back."""
    src = Source(text, renamed)
    bits = [1 << j for j in range(len(passes)) if sugar >> j & 1]
    masks = [sugar] * len(src.entries)
    why = {}
    for attempt in range(4):
        py = gen(masks)
        reasons, module = check(src, py)
        bad = _failing(reasons, module, why)
        if bad is None or not bad:
            break
        if attempt == 0:
            _add_back(src, gen, masks, _drop_one(src, gen, masks, bad, bits), bits)
        elif any(masks[i] == 0 for i in bad):
            bad = None      # plain kernels that fail: the module's fault
            break
        else:
            for i in bad:
                masks[i] = 0
    if bad == set():
        return py, [_note(src, passes, sugar, masks[i], i, why[i])
                    for i in range(len(masks)) if masks[i] != sugar]
    py = gen(None)
    reasons, mod2 = check(src, py)
    if any(reasons) or mod2 is not None:
        raise NotFaithful("not even plain mode traces back: %s"
                          % next(r for r in reasons + [mod2 and mod2[1]] if r))
    first = module[1] if module else next(r for r in reasons if r)
    return py, ["module: dropped every pass of every kernel (%s)" % first]


def _note(src, passes, sugar, mask, i, why):
    gone = [p for j, p in enumerate(passes) if (sugar & ~mask) >> j & 1]
    return "kernel %s: dropped passes %s (%s)" % (src.entries[i]["name"], ",".join(gone), why)


# ---- pyptx-codegen's worker ----------------------------------------------------

def _read_block(inp):
    n = int(inp.readline() or -1)
    if n < 0:
        raise EOFError("pyptx-codegen sent no text")
    return inp.read(n).decode("utf-8", "surrogateescape")


def serve(argv):
    """pyptx-codegen --verify runs this as `python -c TEXT serve PASSES
    SUGAR RENAMED` (PASSES: the pass names, comma-separated, bit j the
    j-th; SUGAR: the mask asked for; RENAMED: 1 with --name or
    --rename-kernels).  Lines, both ways: the program sends the PTX as a
    byte count line and the bytes; this asks for each candidate with
    `gen M0 M1 ...` (one mask per .entry, decimal) or `gen plain`, and the
    program answers with a count and that Python (count -1: it could not
    make it); at the end this sends `note TEXT` lines, then `done` (the
    last candidate traces back) or `fail WHY`, or at once `nopyptx WHY`.
    What the generated code prints goes nowhere."""
    import os
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="surrogateescape")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    inp = sys.stdin.buffer

    def say(line):
        out.write(line.replace("\n", " ") + "\n")
        out.flush()

    def gen(masks):
        say("gen " + ("plain" if masks is None else " ".join(map(str, masks))))
        return _read_block(inp)

    try:
        require_pyptx()
    except PyptxMissing as e:
        say("nopyptx " + str(e))
        return 0
    passes, sugar, renamed = argv[0].split(","), int(argv[1]), argv[2] == "1"
    text = _read_block(inp)
    try:
        _py, notes = search(text, gen, passes, sugar, renamed)
    except NotFaithful as e:
        say("fail " + str(e))
        return 0
    for n in notes:
        say("note " + n)
    say("done")
    return 0


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    sys.exit(serve(sys.argv[2:]))
