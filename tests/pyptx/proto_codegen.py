#!/usr/bin/env python3
"""Executable model of src/codegen/DESIGN.md, plain mode (Python, for
validating the design with harness.py; the product is the C generator).

    proto_codegen.py FILE.ptx   > FILE.py

It follows the rules of DESIGN.md sections 3-7 on a token stream instead of
the C AST.  Where DESIGN.md and this file disagree, fix one of them.
"""
import keyword
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import ptxtok  # noqa: E402

TYPES = {"b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16",
         "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64",
         "e4m3", "e5m2", "pred"}
STATE_SPACES = {"const", "global", "local", "param", "shared", "shared::cta",
                "shared::cluster"}
LINKING = {"visible", "extern", "weak", "common"}
SPECIAL = {"%tid.x": "ptx.special.tid.x()", "%tid.y": "ptx.special.tid.y()",
           "%tid.z": "ptx.special.tid.z()", "%ntid.x": "ptx.special.ntid.x()",
           "%ntid.y": "ptx.special.ntid.y()", "%ntid.z": "ptx.special.ntid.z()",
           "%ctaid.x": "ptx.special.ctaid.x()", "%ctaid.y": "ptx.special.ctaid.y()",
           "%ctaid.z": "ptx.special.ctaid.z()", "%nctaid.x": "ptx.special.nctaid.x()",
           "%nctaid.y": "ptx.special.nctaid.y()", "%nctaid.z": "ptx.special.nctaid.z()",
           "%laneid": "ptx.special.laneid()", "%warpid": "ptx.special.warpid()",
           "%clock": "ptx.special.clock()"}
RESERVED = {"sys", "kernel", "reg", "ptx", "RegArray", "Reg", "PipeRef", "KERNELS",
            "module_ptx", "_raw", "_MODULE", "_entry_text"} | TYPES
DEC = re.compile(r"(0|[1-9][0-9]*)$")
GETATTR_SAFE = re.compile(r"[A-Za-z0-9_]+(::[A-Za-z0-9_]+)*$")


def mangle(part):
    """PTX opcode/modifier (no dot) -> attribute name for ptx.inst, or None."""
    if not GETATTR_SAFE.match(part) or "__" in part or part.endswith("_"):
        return None
    if part.startswith("_") and len(part) > 1 and part[1].isdigit():
        return None
    name = part.replace("::", "__")
    if name[0].isdigit():
        name = "_" + name
    elif keyword.iskeyword(name):
        name += "_"
    if name in ("_opcode", "_modifiers", "_raw_emit") or name.startswith("__"):
        return None
    return name


def unmangle(name):  # what pyptx 0.1.1 _GenericInst.__getattr__ does
    if name.startswith("_") and len(name) > 1 and name[1].isdigit():
        p = name[1:]
    elif name.endswith("_") and not name.endswith("__"):
        p = name.rstrip("_")
    else:
        p = name
    return p.replace("__", "::")


class Gen:
    def __init__(self, src):
        self.src = src
        self.toks = ptxtok.tokenize(src, spans=True)
        self.out = []
        self.types = set()

    # -- helpers ---------------------------------------------------------
    def text(self, i, j):
        """Exact source text of tokens i..j-1 (with the trivia between them)."""
        if i >= j:
            return ""
        return self.src[self.toks[i][2]:self.toks[j - 1][3]]

    def pyname(self, ptxname, used):
        base = re.sub(r"[^A-Za-z0-9_]", "_", ptxname.lstrip("%")) or "v"
        if base[0].isdigit():
            base = "_" + base
        if keyword.iskeyword(base) or base in RESERVED or base.startswith("__"):
            base += "_"
        name, n = base, 2
        while name in used:
            name, n = "%s_%d" % (base, n), n + 1
        used.add(name)
        return name

    # -- operands --------------------------------------------------------
    def reg_ref(self, name):
        for scope in reversed(self.scopes):
            if name in scope["scalars"]:
                return scope["scalars"][name]
            for base, (py, count) in scope["arrays"].items():
                if name.startswith(base):
                    idx = name[len(base):]
                    if DEC.match(idx) and int(idx) < count:
                        return "%s[%s]" % (py, idx)
        return None

    def is_pred(self, name):
        for scope in reversed(self.scopes):
            if name in scope["ptypes"]:
                return scope["ptypes"][name] == "pred"
            for base, (py, count) in scope["arrays"].items():
                if name.startswith(base) and DEC.match(name[len(base):]):
                    return scope["ptypes"].get(base) == "pred"
        return False

    def operand(self, i, j):
        t = [x[0] for x in self.toks[i:j]]
        raw = self.text(i, j)
        if len(t) == 1:
            x = t[0]
            r = self.reg_ref(x)
            if r:
                return r
            if x in SPECIAL:
                return SPECIAL[x]
            if DEC.match(x):
                return x
            return repr(x)
        if len(t) == 2 and t[0] == "-" and DEC.match(t[1]) and t[1] != "0":
            return "-" + t[1]
        if len(t) == 2 and t[0] == "!" and self.reg_ref(t[1]):
            return "~" + self.reg_ref(t[1])
        if len(t) == 3 and t[1] == "|" and self.reg_ref(t[0]) and self.reg_ref(t[2]):
            a, b = self.reg_ref(t[0]), self.reg_ref(t[2])
            return "%s | %s" % (a, b) if self.is_pred(t[0]) else "PipeRef(%s, %s)" % (a, b)
        if t[0] == "[" and t[-1] == "]" and len(t) >= 3:
            base = self.operand(i + 1, i + 2) if (t[1][0].isalnum() or t[1][0] in "%_$") else None
            if base is not None:
                if base.startswith("ptx.special") or t[1][0].isdigit():
                    base = repr(t[1])  # ptx.addr(int) raises TypeError
                off = self.src[self.toks[i + 1][3]:self.toks[j - 1][2]]
                return "ptx.addr(%s%s)" % (base, ", %r" % off if off else "")
            return repr(raw)
        if t[0] in "{(" and t[-1] == ("}" if t[0] == "{" else ")"):
            elems = self.split_commas(i + 1, j - 1)
            if elems is None:
                return repr(raw)
            items = [self.operand(a, b) for a, b in elems]
            if t[0] == "{":
                return "[%s]" % ", ".join(items)
            return "(%s)" % (", ".join(items) + ("," if len(items) == 1 else ""))
        return repr(raw)

    def split_commas(self, i, j):
        parts, depth, start = [], 0, i
        for k in range(i, j):
            x = self.toks[k][0]
            if x in "[{(":
                depth += 1
            elif x in "]})":
                depth -= 1
            elif x == "," and depth == 0:
                if k == start:
                    return None
                parts.append((start, k))
                start = k + 1
        if start < j:
            parts.append((start, j))
        elif parts:
            return None
        return parts

    # -- statements ------------------------------------------------------
    def line(self, s):
        self.out.append("    " * self.depth + s)

    def raw_stmt(self, i, j):
        s = self.toks[i][2]
        ls = self.src.rfind("\n", 0, s) + 1
        indent = self.src[ls:s] if not self.src[ls:s].strip() else "\t"
        self.line("_raw(%r)" % (indent + self.text(i, j)))

    def trivia_lines(self, i):
        """Whole comment-only and blank lines in front of token i -> _raw."""
        if i == 0:
            return
        gap = self.src[self.toks[i - 1][3]:self.toks[i][2]]
        segs = gap.split("\n")[1:-1]
        for s in segs:
            if not s.strip() or s.strip().startswith("//"):
                self.line("_raw(%r)" % (s if s.strip() else ""))

    def reg_decl(self, i, j, api, top):
        """.reg .T NAME[<N>] ;  -> reg API (api=True) or raw + binding."""
        t = [x[0] for x in self.toks[i:j]]
        scope = self.scopes[-1]
        ok = len(t) >= 3 and t[1][1:] in TYPES and t[-1] == ";"
        decls = []
        if ok:
            k = 2
            while k < len(t) - 1:
                name = t[k]
                if not (name.startswith("%") or name[0].isalpha() or name[0] in "_$"):
                    ok = False
                    break
                if t[k + 1] == "<" and DEC.match(t[k + 2]) and t[k + 3] == ">":
                    decls.append((name, int(t[k + 2])))
                    k += 4
                else:
                    decls.append((name, None))
                    k += 1
                if t[k] == ",":
                    k += 1
                elif t[k] != ";":
                    ok = False
                    break
        if not ok:
            self.raw_stmt(i, j)
            return
        ty = t[1][1:]
        self.types.add(ty)
        single = len(decls) == 1
        for name, count in decls:
            py = self.pyname(name, self.used)
            scope["ptypes"][name] = ty
            if count is not None:
                scope["arrays"][name] = (py, count)
                call = "reg.array(%s, %d, name=%r)" % (ty, count, name) if (api and single) \
                    else "RegArray(%r, %d, %s)" % (name, count, ty)
            else:
                scope["scalars"][name] = py
                call = "reg.scalar(%s, name=%r)" % (ty, name) if (api and single) \
                    else "Reg(%r, %s)" % (name, ty)
            if not (api and single) and name == decls[0][0]:
                self.raw_stmt(i, j)
            self.line("%s = %s" % (py, call))

    def var_decl(self, i, j):
        """[.link] .ss [.align N] .T name[[N]] ;  -> ptx.var or None."""
        t = [x[0] for x in self.toks[i:j]]
        k, link = 0, None
        if t[0][1:] in LINKING:
            link, k = t[0][1:], 1
        if k >= len(t) or t[k][1:] not in STATE_SPACES:
            return False
        ss = t[k][1:]
        k += 1
        align = None
        if t[k] == ".align" and DEC.match(t[k + 1]):
            align, k = t[k + 1], k + 2
        if t[k][1:] not in TYPES:
            return False
        ty = t[k][1:]
        k += 1
        name = t[k]
        if name.startswith(".") or not (name[0].isalpha() or name[0] in "_$%"):
            return False
        k += 1
        size = None
        if link == "extern":
            if t[k:k + 2] != ["[", "]"]:
                return False
            k += 2
        elif t[k] == "[" and DEC.match(t[k + 1]) and t[k + 2] == "]":
            size, k = t[k + 1], k + 3
        if t[k:] != [";"]:
            return False
        self.types.add(ty)
        args = [repr(ss.replace("::", "__")), ty, repr(name)]
        if size is not None:
            args.append("size=" + size)
        if align is not None:
            args.append("align=" + align)
        if link:
            args.append("linking=%r" % link)
        self.line("ptx.var(%s)" % ", ".join(args))
        return True

    def instruction(self, i, j):
        t = [x[0] for x in self.toks[i:j]]
        k, pred = 0, None
        if t[0] == "@":
            neg = t[1] == "!"
            k = 3 if neg else 2
            p = self.reg_ref(t[k - 1]) or "ptx.sreg(%r)" % t[k - 1]
            pred = ("~" if neg else "") + p
        parts = t[k].split(".")
        names = [mangle(p) for p in parts]
        if (any(n is None for n in names) or not re.match(r"[A-Za-z_]\w*$", parts[0])
                or [unmangle(n) for n in names] != parts):
            self.raw_stmt(i, j)
            return
        ops = []
        if k + 1 < len(t) - 1:
            sp = self.split_commas(i + k + 1, j - 1)
            if sp is None:
                self.raw_stmt(i, j)
                return
            ops = [self.operand(a, b) for a, b in sp]
        if pred:
            ops.append("pred=" + pred)
        self.line("ptx.inst.%s(%s)" % (".".join(names), ", ".join(ops)))

    def stmt_end(self, i, end):
        """Index one past the statement starting at i."""
        t = self.toks
        if t[i][0] in (".loc", ".file", "#") or t[i][0].startswith("#") or t[i][0].startswith("@@"):
            line = t[i][1]
            j = i + 1
            while j < end and t[j][1] == line and t[j][0] != ";":
                j += 1
            return j + 1 if j < end and t[j][0] == ";" else j
        j = i
        while j < end and t[j][0] != ";":
            if t[j][0] in ("{", "}") and j > i and t[i][0] not in (".reg", ".shared", ".global", ".const", ".local", ".param") \
                    and not self.inside_operands(i, j):
                break
            j += 1
        return min(j + 1, end)

    def inside_operands(self, i, j):
        # '{' inside an instruction is a vector operand: count brackets
        depth = 0
        for k in range(i, j):
            x = self.toks[k][0]
            if x in "{[(":
                depth += 1
            elif x in "}])":
                depth -= 1
        return depth > 0 or self.toks[j][0] == "{"

    def body(self, i, end):
        """Statements of a block body toks[i:end] (end = index of its '}')."""
        phase = "A" if self.depth == 1 else "C"
        while i < end:
            x = self.toks[i][0]
            if x == "{":
                self.trivia_lines(i)
                phase = "C"
                close = self.match(i)
                self.line("with ptx.scope():")
                self.depth += 1
                self.scopes.append({"arrays": {}, "scalars": {}, "ptypes": {}})
                n0 = len(self.out)
                self.body_inner(i + 1, close)
                if len(self.out) == n0:
                    self.line("pass")
                self.scopes.pop()
                self.depth -= 1
                i = close + 1
                continue
            if i + 1 < end and self.toks[i + 1][0] == ":" and re.match(r"[A-Za-z_$%]", x):
                self.trivia_lines(i)
                phase = "C"
                self.line("ptx.label(%r)" % x)
                i += 2
                continue
            j = self.stmt_end(i, end)
            if x == ".reg" and phase == "A":
                before = len(self.out)
                self.reg_decl(i, j, True, True)
                if any("_raw(" in l for l in self.out[before:]):
                    phase = "C"
                i = j
                continue
            if phase in ("A", "B") and x.startswith(".") and x != ".reg":
                if self.var_decl(i, j):
                    phase = "B"
                    i = j
                    continue
            if phase in ("A", "B"):
                phase = "C"
            self.trivia_lines(i)
            if x == ".reg":
                self.reg_decl(i, j, False, False)
            elif x == ".pragma" and [t[0] for t in self.toks[i:j]][2:] == [";"] \
                    and self.toks[i + 1][0].startswith('"'):
                self.line("ptx.pragma(%s)" % repr(self.toks[i + 1][0][1:-1]))
            elif x.startswith(".") or x.startswith("#"):
                self.raw_stmt(i, j)
            else:
                self.instruction(i, j)
            i = j

    def body_inner(self, i, end):
        # nested block: reg API stays inline (scope); vars are raw
        while i < end:
            x = self.toks[i][0]
            if x == ".reg":
                j = self.stmt_end(i, end)
                self.trivia_lines(i)
                self.reg_decl(i, j, True, False)
                i = j
                continue
            if x == "{" or (i + 1 < end and self.toks[i + 1][0] == ":"):
                # reuse body() for labels and blocks, one statement at a time
                j = self.match(i) + 1 if x == "{" else i + 2
                self.body(i, j)
                i = j
                continue
            j = self.stmt_end(i, end)
            self.trivia_lines(i)
            if x == ".pragma" and [t[0] for t in self.toks[i:j]][2:] == [";"]:
                self.line("ptx.pragma(%s)" % repr(self.toks[i + 1][0][1:-1]))
            elif x.startswith(".") or x.startswith("#"):
                self.raw_stmt(i, j)
            else:
                self.instruction(i, j)
            i = j

    def match(self, i):
        depth = 0
        for k in range(i, len(self.toks)):
            x = self.toks[k][0]
            if x == "{":
                depth += 1
            elif x == "}":
                depth -= 1
                if depth == 0:
                    return k
        return len(self.toks) - 1

    # -- entries and module ------------------------------------------------
    def entry(self, e, arch, version, kidx):
        t = self.toks
        i = e["start"] + 2
        name = e["name"]
        params = []
        if t[i][0] == "(":
            close = i
            depth = 0
            while True:
                if t[close][0] == "(":
                    depth += 1
                elif t[close][0] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                close += 1
            for a, b in (self.split_commas(i + 1, close) or []):
                params.append(self.param(a, b))
            i = close + 1
        dirs = []
        while i < e["body_start"]:
            j = i + 1
            while j < e["body_start"] and not t[j][0].startswith("."):
                j += 1
            vals = self.split_commas(i + 1, j) or []
            dirs.append("(%r, (%s))" % (t[i][0][1:], "".join(
                (self.text(a, b) if DEC.match(self.text(a, b)) else repr(self.text(a, b))) + ", "
                for a, b in vals)))
            i = j
        kw = ["arch=%r" % arch, "version=%s" % version]
        if params:
            kw.append("raw_params=[%s]" % ", ".join(params))
        if dirs:
            kw.append("raw_directives=[%s]" % ", ".join(dirs))
        pyok = re.match(r"[A-Za-z_]\w*$", name) and not keyword.iskeyword(name) \
            and name not in RESERVED and name not in self.kernel_names
        fn = name if pyok else "_k%d" % kidx
        self.kernel_names.add(fn)
        self.used = set(RESERVED) | self.kernel_names
        self.scopes = [{"arrays": {}, "scalars": {}, "ptypes": {}}]
        self.depth = 0
        self.out.append("")
        self.out.append("")
        if pyok:
            self.out.append("@kernel(%s)" % ", ".join(kw))
        self.out.append("def %s():" % fn)
        self.depth = 1
        n0 = len(self.out)
        self.body(e["body_start"] + 1, e["end"] - 1)
        if len(self.out) == n0:
            self.line("pass")
        self.depth = 0
        if not pyok:
            self.out.append("%s.__name__ = %r" % (fn, name))
            self.out.append("%s = kernel(%s)(%s)" % (fn, ", ".join(kw), fn))
        return fn

    def param(self, a, b):
        t = [x[0] for x in self.toks[a:b]]
        k = 1
        ty = ""
        if t[0] != ".param":
            return "(%r, %r)" % ("b8", self.text(a, b))  # will not reproduce
        if t[k] == ".align" and DEC.match(t[k + 1]):
            ty_align = ".align" + t[k + 1]
            k += 2
        else:
            ty_align = ""
        if t[k][1:] not in TYPES:
            return "(%r, %r)" % ("b8", self.text(a, b))
        ty = t[k][1:] + ty_align
        k += 1
        rest = t[k:]
        if len(rest) == 1:
            return "(%r, %r)" % (ty, rest[0])
        if len(rest) == 4 and rest[1] == "[" and DEC.match(rest[2]) and rest[3] == "]":
            return "(%r, %r)" % (ty + ".array" + rest[2], rest[0])
        if (len(rest) == 5 and rest[0] == ".ptr" and rest[1][1:] in ("global", "shared", "local", "const", "param")
                and rest[2] == ".align" and DEC.match(rest[3])):
            return "(%r, %r)" % (ty + ".ptr." + rest[1][1:] + ".palign" + rest[3], rest[4])
        return "(%r, %r)" % (ty, self.text(a + k, b))  # name carries the rest

    def run(self):
        toks = self.toks
        tx = [x[0] for x in toks]
        arch, version = "sm_90a", "(8, 5)"
        if ".target" in tx:
            i = tx.index(".target")
            j = i + 1
            while j < len(toks) and toks[j][1] == toks[i][1]:
                j += 1
            arch = self.text(i + 1, j)
        if ".version" in tx:
            v = tx[tx.index(".version") + 1]
            m = re.match(r"(\d+)\.(\d+)$", v)
            if m and DEC.match(m.group(1)) and DEC.match(m.group(2)):
                version = "(%s, %s)" % (m.group(1), m.group(2))
            elif m:
                version = "(%r, %r)" % (m.group(1), m.group(2))
        entries = ptxtok.find_entries([x[:2] for x in toks])
        self.kernel_names = set()
        names = []
        for n, e in enumerate(entries):
            names.append((e["name"], self.entry(e, arch, version, n)))
        segs, pos = [], 0
        for e, (_, fn) in zip(entries, names):
            segs.append(repr(self.src[pos:toks[e["start"]][2]]))
            segs.append(fn)
            pos = toks[e["end"] - 1][3]
        segs.append(repr(self.src[pos:]))
        head = ["# Generated by proto_codegen.py (plain mode).", "import sys",
                "from pyptx import kernel, reg, ptx",
                "from pyptx.reg import Reg, RegArray, PipeRef"]
        if self.types:
            head.append("from pyptx.types import " + ", ".join(sorted(self.types)))
        head += ["", "", "def _raw(text):", "    ptx.inst._raw_emit(text)"]
        tail = ["", "", "KERNELS = {%s}" % ", ".join("%r: %s" % nf for nf in names), "",
                "_MODULE = (%s,)" % ", ".join(segs), "", "",
                "def _entry_text(k):", "    t = k.ptx()",
                "    i = t.index('.visible .entry ') + len('.visible ')",
                "    return t[i:t.rindex('}') + 1]", "", "",
                "def module_ptx():",
                "    return ''.join(s if isinstance(s, str) else _entry_text(s) for s in _MODULE)",
                "", "", "if __name__ == '__main__':", "    sys.stdout.buffer.write(module_ptx().encode('utf-8', 'surrogateescape'))"]
        return "\n".join(head + self.out + tail) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = open(args[0], encoding="utf-8").read()
    sys.stdout.write(Gen(src).run())


if __name__ == "__main__":
    main()
