"""Random pyptx 0.1.1 kernels, written as a person writes the DSL.

    src, info = generate(seed, index, probs=None)

`src` is a standalone Python file defining KERNEL (a pyptx Kernel) and
ARGS (its keyword arguments); `info["constructs"]` is the set of
constructs the kernel contains (the keys of PROBS).  The same seed and
index give the same text.

The generator knows the DSL's typing rules (pyptx/reg.py: which operator
takes which operands, what dtype comes out), not what the sugar passes of
this project recognize: it writes what the DSL's docstrings teach, mixed
and nested at random.  This file holds the program state (names, types,
scopes, indentation) and integer expressions; the statements are in
stmts.py and the larger sections (control flow, helpers, barriers, tensor
cores) in sections.py.
"""
import random

# construct -> probability that a kernel uses it at all (a kernel that
# enables one writes it one or more times)
PROBS = {
    "ops": 0.9,            # Reg operators in chains: a = b + c * 4
    "augassign": 0.7,      # acc += x, off <<= 1, m ^= k
    "ptr_offset": 0.6,     # px + off with a 32-bit off (cvt + add.s64)
    "wide64": 0.4,         # u64/s64/b64 arithmetic
    "scalar_init": 0.7,    # reg.scalar(T, init=...)
    "from_": 0.7,          # reg.from_(...)
    "array": 0.3,          # reg.array(T, n), r[k], r[k] = expr
    "reglist": 0.5,        # [reg.scalar(f32) for _ in range(4)], g[j], append
    "v4": 0.35,            # ld/st .v4 of a whole list
    "pyfor": 0.6,          # for j in range(N) with fresh registers
    "nested_for": 0.3,     # for i ...: for j ...
    "affine": 0.5,         # offsets progressing with the loop variable
    "py_if": 0.3,          # if j == 0: ... on the loop variable
    "helper": 0.35,        # def inside the kernel, called several times
    "nonlocal": 0.2,       # ... that rebinds an outer register
    "if_": 0.5,            # with ptx.if_(p): ...
    "else_": 0.3,          # ... with ptx.else_(): ...
    "loop": 0.35,          # with ptx.loop("L", pred=p): ...
    "range_": 0.25,        # for k in ptx.range_(a, b, s):
    "kloop": 0.2,          # ptx.kloop(trips, unroll=U, body=f)
    "smem": 0.4,           # smem.alloc, tile[r, c], ld/st.shared
    "bar": 0.4,            # ptx.bar.sync
    "mbarrier": 0.25,      # smem.mbarrier, init/arrive/expect_tx/wait
    "pipeline": 0.2,       # ptx.mbarrier.array + ptx.pipeline + ring.advance()
    "warp_reduce": 0.3,    # ptx.warp.reduce_*
    "typed": 0.6,          # ptx.add(u32, ...), ptx.ld(f32, ...), ptx.mad, ptx.selp ...
    "inst": 0.7,           # ptx.inst.<op>.<mods>(...)
    "pred_inst": 0.3,      # ..., pred=p / pred=~p
    "float": 0.6,          # f32 arithmetic through ptx.inst
    "wgmma": 0.12,         # smem.wgmma_tile, reg.wgmma_frag, ptx.wgmma.*
    "tma": 0.12,           # X.tma_desc(), cp.async.bulk.tensor, tma.load_3d
    "tcgen05": 0.08,       # ptx.tcgen05.*
    "cp_async": 0.12,      # ptx.cp.async_.cg/ca + commit/wait
}

INT32 = ("u32", "s32", "b32")
INT64 = ("u64", "s64", "b64")
# Python operator precedence, for the fewest parentheses
PREC = {"*": 12, "+": 11, "-": 11, "<<": 10, ">>": 10, "&": 9, "^": 8, "|": 7}
NAMES = {
    "u32": ["idx", "off", "row", "col", "base", "lane", "i", "k", "n", "cnt", "tile", "pos"],
    "s32": ["d", "delta", "j", "sidx", "rem", "step"],
    "b32": ["bits", "mask", "h", "key", "flags", "word"],
    "u64": ["boff", "addr", "ofs", "gaddr"],
    "s64": ["soff", "diff"],
    "b64": ["w", "desc", "packed"],
    "f32": ["x", "y", "v", "acc", "s", "t", "a", "b", "m", "scale"],
    "pred": ["p", "ok", "inb", "done", "more", "first", "last", "hit"],
}
CONSTS = [1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 512, 1024,
          4096, 0xFF, 0x3FF, 0xFFFF, 8192, 32768]
SHIFTS = [1, 2, 3, 4, 5, 6, 7, 8, 16]


class Var:
    """A Python name in the kernel: kind is 'reg' (a Reg of dtype), 'ptr' (a
    global b64 pointer), 'list' (a Python list of n Regs), 'array' (a
    reg.array), 'smem' (a SharedAlloc of shape), 'bars' (smem.mbarrier),
    'int' (a Python int, a loop variable ranging over range(n))."""
    __slots__ = ("kind", "dtype", "n", "shape")

    def __init__(self, kind, dtype=None, n=0, shape=None):
        self.kind, self.dtype, self.n, self.shape = kind, dtype, n, shape


class Gen:
    def __init__(self, seed, probs=None):
        probs = dict(PROBS, **(probs or {}))
        self.rng = random.Random(seed)
        self.on = {c for c, p in sorted(probs.items()) if self.rng.random() < p}
        self.used = set()
        self.lines = []
        self.ind = 1
        self.scopes = [{}]       # innermost last
        self.funcs = [0]         # index in scopes where each function begins
        self.nonlocals = []      # per helper being written: names it rebinds
        self.taken = set()       # every name given in the kernel
        self.labels = 0
        self.loop_depth = 0
        self.kloop_bare = False
        self.params = []         # the kernel's tensor parameters

    # -- output ------------------------------------------------------------

    def emit(self, line, *constructs):
        self.lines.append("    " * self.ind + line)
        self.used.update(constructs)

    def chance(self, construct, p=1.0):
        return construct in self.on and self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def label(self, base):
        """A label's Python text: a loop written inside Python loops names
        each copy after the loop variables (PTX labels are unique)."""
        self.labels += 1
        lvs = [n for n, v in self.visible(lambda v: v.kind == "int")]
        if not lvs:
            return "\"%s_%d\"" % (base, self.labels)
        return "f\"%s_%d_%s\"" % (base, self.labels, "_".join("{%s}" % n for n in lvs))

    # -- names and scopes -------------------------------------------------------

    def fresh(self, dtype_or_base):
        bases = NAMES.get(dtype_or_base, [dtype_or_base])
        base = self.pick(bases)
        name, k = base, 1
        while name in self.taken or name in RESERVED:
            k += 1
            name = "%s%d" % (base, k)
        self.taken.add(name)
        return name

    def define(self, name, var):
        self.scopes[-1][name] = var
        return name

    def lookup(self, name):
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    def push(self, function=False):
        if function:
            self.funcs.append(len(self.scopes))
        self.scopes.append({})

    def pop(self, function=False):
        self.scopes.pop()
        if function:
            self.funcs.pop()

    def visible(self, pred):
        """(name, Var) visible here and matching pred, innermost first."""
        seen, out = set(), []
        for s in reversed(self.scopes):
            for n, v in s.items():
                if n not in seen and pred(v):
                    seen.add(n)
                    out.append((n, v))
        return out

    def assignable(self, name):
        """May `name` be rebound here (x += 1)?  In the current function,
        yes; in an enclosing one, only from a helper that declares it
        nonlocal (which it then does, if the construct is on)."""
        depth = next(i for i in range(len(self.scopes) - 1, -1, -1) if name in self.scopes[i])
        if depth >= self.funcs[-1]:
            return True
        if len(self.funcs) == 2 and depth < self.funcs[-1] and "nonlocal" in self.on:
            self.nonlocals[-1].add(name)
            self.used.add("nonlocal")
            return True
        return False

    def assignable_peek(self, name):
        depth = next(i for i in range(len(self.scopes) - 1, -1, -1) if name in self.scopes[i])
        return depth >= self.funcs[-1] or (len(self.funcs) == 2 and "nonlocal" in self.on)

    def regs(self, dtypes):
        return [n for n, v in self.visible(lambda v: v.kind == "reg" and v.dtype in dtypes)]

    def reg_or_none(self, dtypes):
        names = self.regs(dtypes)
        arrays = self.visible(lambda v: v.kind == "array" and v.dtype in dtypes)
        if arrays and self.rng.random() < 0.25:
            n, v = self.pick(arrays)
            return "%s[%d]" % (n, self.rng.randrange(v.n))
        return self.pick(names) if names else None

    def need_reg(self, dtype):
        """A register of dtype, made here if there is none."""
        r = self.reg_or_none((dtype,))
        if r:
            return r
        name = self.fresh(dtype)
        if dtype == "f32":
            self.emit("%s = reg.scalar(f32, init=%s)" % (name, self.pick(["0.0", "1.0", "0.5"])),
                      "scalar_init")
        elif dtype == "pred":
            self.pred_def(name)
        else:
            self.emit("%s = reg.scalar(%s, init=%d)" % (name, dtype, self.pick(CONSTS)),
                      "scalar_init")
        self.define(name, Var("reg", dtype))
        return name

    def int_loopvar(self):
        v = self.visible(lambda v: v.kind == "int")
        return self.pick(v) if v else None

    # -- expressions ----------------------------------------------------------------

    def const_expr(self):
        """(text, precedence) of a Python int, sometimes in terms of a loop
        variable (affine)."""
        lv = self.int_loopvar()
        c = self.pick(CONSTS)
        if lv and self.chance("affine", 0.5):
            k = self.pick([4, 16, 64, 128, 256, 1024, 8192])
            self.used.add("affine")
            return self.pick([("%s * %d" % (lv[0], k), 12), ("(%d + %d * %s)" % (c, k, lv[0]), 99),
                              ("%d * (%s + 1)" % (k, lv[0]), 12)])
        return (str(c) if self.rng.random() < 0.8 else hex(c)), 99

    def leaf32(self):
        r = self.reg_or_none(INT32)
        if r is None or self.rng.random() < 0.08:
            return "ptx.special.tid.x()", "u32"
        if "[" in r:
            return r, self.lookup(r.split("[")[0]).dtype
        return r, self.lookup(r).dtype

    def int_expr(self, width=32, depth=2):
        """(text, dtype, precedence) of an integer Reg expression under
        pyptx's rules: the left operand's dtype wins, u32 + a 64-bit Reg
        is u64, a 64-bit left widens a 32-bit right with cvt."""
        if width == 64:
            regs = self.regs(INT64) + [n for n, v in self.visible(lambda v: v.kind == "ptr")]
            if not regs:
                return self.int_expr(32, depth)
            left = self.pick(regs)
            ldt = "b64" if self.lookup(left).kind == "ptr" else self.lookup(left).dtype
            text, dt, prec = left, ldt, 99
        else:
            text, dt = self.leaf32()
            prec = 99
        ops = int(self.rng.random() * (depth + 1))
        ptr = width == 64 and self.lookup(text).kind == "ptr"
        for _ in range(ops):
            op = self.pick(["+", "+", "-"] if ptr else
                           ["+", "+", "*", "<<", ">>", "&", "^", "-", "|", "max"])
            text, dt, prec = self.binop(text, dt, prec, op, depth - 1)
        return text, dt, prec

    def right_operand(self, ldt, op, depth):
        """(text, prec) of a right operand fit for `ldt op _`."""
        if op in ("<<", ">>"):
            if self.rng.random() < 0.8:
                return str(self.pick(SHIFTS)), 99
            r = self.reg_or_none(("u32",))
            return (r, 99) if r else (str(self.pick(SHIFTS)), 99)
        if self.rng.random() < 0.5:
            return self.const_expr() if op in ("+", "*") else (str(self.pick(CONSTS)), 99)
        if ldt in INT64 and op in ("+", "-", "*", "&", "|", "^") and self.rng.random() < 0.5:
            self.used.add("ptr_offset")
            t, _, p = self.int_expr(32, max(depth - 1, 0))
            return t, p
        if depth > 0 and self.rng.random() < 0.4:
            t, dt, p = self.int_expr(64 if ldt in INT64 else 32, depth - 1)
            if (dt in INT64) == (ldt in INT64):
                return t, p
        r = self.reg_or_none(INT64 if ldt in INT64 else INT32)
        return (r, 99) if r else (str(self.pick(CONSTS)), 99)

    def binop(self, text, dt, prec, op, depth):
        if op == "max":
            if dt not in INT32:
                op = "+"
            else:
                self.used.add("ops")
                r, _ = self.right_operand(dt, "+", 0)
                return "%s.max(%s)" % (paren(text, prec, 13), r), dt, 13
        rt, rp = self.right_operand(dt, op, depth)
        self.used.add("ops")
        if dt in INT64:
            self.used.add("wide64")
        p = PREC[op]
        out = "%s %s %s" % (paren(text, prec, p), op, paren(rt, rp, p + 1))
        if self.rng.random() < 0.1 and op in ("+", "*", "&", "^") and rt.isdigit() and prec == 99:
            out = "%s %s %s" % (rt, op, text)     # 128 + x: Reg.__radd__
        return out, dt, p

    def pred_expr(self):
        """A comparison (a pred Reg expression), or a pred variable."""
        preds = self.regs(("pred",))
        if preds and self.rng.random() < 0.5:
            p = self.pick(preds)
            return ("~" + p) if self.rng.random() < 0.3 else p
        text, dt, prec = self.int_expr(32, 1)
        cmp = self.pick(["<", "<", ">=", "==", "!=", ">", "<="])
        return "%s %s %s" % (paren(text, prec, 6), cmp, self.pick(CONSTS))

    def pred_def(self, name):
        text = self.pred_expr()
        if text.startswith("~") or " " not in text:
            text, dt, prec = self.int_expr(32, 1)
            text = "%s < %d" % (paren(text, prec, 6), self.pick(CONSTS))
        self.emit("%s = %s" % (name, text), "ops")


RESERVED = {"ptx", "reg", "smem", "kernel", "Tile", "u32", "s32", "b32", "u64", "s64", "b64",
            "f32", "pred", "bf16", "f16", "b16", "KERNEL", "ARGS", "range", "len", "list"}


def paren(text, prec, need):
    return text if prec >= need else "(%s)" % text


def generate(seed, index, probs=None):
    """The source of kernel `index` of run `seed`, and what it contains."""
    import sections
    g = Gen("%d:%d" % (seed, index), probs)
    src = sections.kernel(g, "k%d" % index)
    return src, {"constructs": sorted(g.used)}
