"""The kernel, its blocks, control flow and helpers (see gen.py); the
barrier and tensor-core sections are in units.py."""
import stmts
import units
from gen import CONSTS, INT32, Var

COMPOUND_DEPTH = 3


def fallback(g):
    """One statement that always fits: a body is never empty."""
    name = g.fresh("u32")
    g.emit("%s = reg.scalar(u32, init=%s)" % (name, g.const_expr()[0]), "scalar_init")
    g.define(name, Var("reg", "u32"))


def simple(g):
    for _ in range(8):
        f = g.rng.choices([s for s, _ in stmts.SIMPLE], [w for _, w in stmts.SIMPLE])[0]
        if f(g):
            return
    fallback(g)


def block(g, budget, depth=0):
    """Statements until about `budget` lines are written (at least one)."""
    start = len(g.lines)
    end = start + max(budget, 1)
    while len(g.lines) < end:
        left = end - len(g.lines)
        if depth < COMPOUND_DEPTH and left >= 3 and g.rng.random() < 0.22:
            c = g.rng.choices(COMPOUNDS, [w for _, w in COMPOUND_W])[0]
            if c(g, min(left, g.rng.randint(3, 14)), depth + 1):
                continue
        simple(g)
    if len(g.lines) == start:
        fallback(g)


def body(g, budget, depth, function=False):
    g.ind += 1
    g.push(function)
    block(g, budget, depth)
    g.pop(function)
    g.ind -= 1


def c_if(g, budget, depth):
    if not g.chance("if_"):
        return False
    g.emit("with ptx.if_(%s):" % g.pred_expr(), "if_")
    if g.chance("else_", 0.5):
        half = max(budget // 2, 1)
        body(g, half, depth)
        g.emit("with ptx.else_():", "else_")
        body(g, budget - half, depth)
    else:
        body(g, budget - 1, depth)
    return True


def c_loop(g, budget, depth):
    if not g.chance("loop"):
        return False
    i, p = g.fresh("u32"), g.fresh("pred")
    g.emit("%s = reg.scalar(u32, init=0)" % i, "scalar_init")
    g.define(i, Var("reg", "u32"))
    neg = g.rng.random() < 0.3
    g.emit("%s = reg.scalar(pred)" % p)
    lab = g.label(g.pick(["loop", "k_loop", "main", "tile_loop", "L"]))
    g.emit("with ptx.loop(%s, pred=%s%s):" % (lab, "~" if neg else "", p), "loop")
    g.loop_depth += 1
    body(g, budget - 4, depth)
    g.loop_depth -= 1
    g.ind += 1
    g.emit("%s += %s" % (i, g.pick(["1", "1", "4", "32"])), "augassign")
    n = g.pick([4, 8, 16, 64]) if g.rng.random() < 0.7 else (g.reg_or_none(INT32) or "8")
    cmp = "ge" if neg else "lt"
    if g.chance("typed", 0.5):
        g.emit("ptx.setp(\"%s\", u32, %s, %s, %s)" % (cmp, p, i, n), "typed")
    else:
        g.emit("ptx.inst.setp.%s.u32(%s, %s, %s)" % (cmp, p, i, n), "inst")
    g.ind -= 1
    return True


def c_range(g, budget, depth):
    if not g.chance("range_"):
        return False
    k = g.fresh(g.pick(["k", "kt", "it", "step"]))
    start = "0"
    if g.rng.random() < 0.3:
        start = g.reg_or_none(("u32", "s32")) or "0"
    step = g.pick([1, 1, 4, 16, 32, 64])
    g.emit("for %s in ptx.range_(%s, %d, %d):" % (k, start, step * g.pick([2, 4, 8]), step),
           "range_")
    g.ind += 1
    g.push()
    g.define(k, Var("reg", "s32"))
    block(g, budget - 1, depth)
    g.pop()
    g.ind -= 1
    return True


def c_kloop(g, budget, depth):
    if not g.chance("kloop") or len(g.funcs) > 1:
        return False
    trips = g.reg_or_none(("u32",))
    if trips is None or "[" in trips or g.rng.random() < 0.3:
        trips = g.fresh("u32")
        text, dt, prec = g.int_expr(32, 1)
        g.emit("%s = %s" % (trips, text) if " " in text
               else "%s = reg.from_(%s, u32)" % (trips, text), "ops")
        g.define(trips, Var("reg", "u32"))
    fn = g.fresh(g.pick(["step", "body", "iteration", "one"]))
    function(g, "def %s():" % fn, budget - 2, depth)
    # the default label, "kloop", once per kernel: PTX labels are unique
    bare = not g.kloop_bare and not g.int_loopvar() and g.rng.random() < 0.4
    g.kloop_bare |= bare
    lab = "" if bare else ", loop_label=%s" % g.label("kl")
    g.emit("ptx.kloop(%s, unroll=%d, body=%s%s)" % (trips, g.pick([1, 2, 4, 8]), fn, lab), "kloop")
    return True


def function(g, header, budget, depth, params=(), first=None):
    """A def with its body; the nonlocal line comes from what the body
    rebinds.  Returns the name the body may return, or None."""
    g.emit(header)
    at = len(g.lines)
    g.ind += 1
    g.push(function=True)
    g.nonlocals.append(set())
    for name, var in params:
        g.define(name, var)
    if first:
        first(g)
    block(g, budget, depth)
    ret = None
    mine = [n for n, v in g.scopes[-1].items() if v.kind == "reg" and v.dtype in ("u32", "f32")
            and n not in dict(params)]
    if mine and g.rng.random() < 0.5:
        ret = g.pick(mine)
        rv = g.scopes[-1][ret]
        g.emit("return %s" % ret)
    names = g.nonlocals.pop()
    if names:
        g.lines.insert(at, "    " * g.ind + "nonlocal " + ", ".join(sorted(names)))
    g.pop(function=True)
    g.ind -= 1
    return (ret, rv) if ret else None


PARAM_KINDS = [("ptr", ["src", "dst", "p", "base_ptr"]), ("u32", ["i", "off", "lane_id", "r"]),
               ("f32", ["val", "w", "bias"]), ("int", ["scale", "stride", "k", "shift"])]


def c_helper(g, budget, depth):
    if not g.chance("helper") or len(g.funcs) > 1 or g.loop_depth:
        return False
    params, text, used = [], [], set()
    for _ in range(g.rng.randint(1, 3)):
        kind, names = g.pick(PARAM_KINDS)
        n = g.pick(names)
        if n in used or n in g.taken:
            continue
        used.add(n)
        g.taken.add(n)
        if kind == "int":
            dflt = g.pick([1, 2, 4, 8, 128])
            params.append((n, Var("int", n=99), dflt))
            text.append("%s=%d" % (n, dflt))
        else:
            params.append((n, Var("ptr", "b64") if kind == "ptr" else Var("reg", kind), None))
            text.insert(len([p for p in params if p[2] is None]) - 1, n)
    if not params:
        return False
    fn = g.fresh(g.pick(["load_scaled", "accumulate", "emit_row", "tile_step", "combine", "fetch"]))
    ret = function(g, "def %s(%s):" % (fn, ", ".join(text)), min(budget, 10), depth,
                   [(n, v) for n, v, _ in params], first=lambda g: use_params(g, params))
    g.used.add("helper")
    for _ in range(g.rng.randint(2, 3)):
        call(g, fn, params, ret)
    return True


def use_params(g, params):
    """The first line of a helper: its parameters in use."""
    p32 = [n for n, v, _ in params if v.kind == "reg" and v.dtype == "u32"]
    ints = [n for n, v, _ in params if v.kind == "int"]
    ptrs = [n for n, v, _ in params if v.kind == "ptr"]
    if p32:
        t = g.fresh("u32")
        g.emit("%s = %s * %s" % (t, p32[0], ints[0] if ints else g.pick(CONSTS)), "ops")
        g.define(t, Var("reg", "u32"))
    if ptrs:
        v = g.fresh("f32")
        g.emit("%s = reg.scalar(f32)" % v)
        off = ", %s" % ints[0] if ints and not p32 else ""
        g.emit("ptx.ld(f32, %s, ptx.addr(%s%s))" % (v, ptrs[0], off), "typed")
        g.define(v, Var("reg", "f32"))


def call(g, fn, params, ret):
    args = []
    for n, v, dflt in params:
        if v.kind == "int":
            if g.rng.random() < 0.5:
                args.append("%s=%d" % (n, g.pick([1, 2, 4, 16, 64, 256])))
            continue
        if v.kind == "ptr":
            cands = [m for m, w in g.visible(lambda w: w.kind == "ptr")]
        else:
            cands = g.regs((v.dtype,) if v.dtype == "f32" else INT32)
        args.insert(len([a for a in args if "=" not in a]), g.pick(cands) if cands
                    else g.need_reg(v.dtype if v.kind == "reg" else "u32"))
    line = "%s(%s)" % (fn, ", ".join(args))
    if ret and g.rng.random() < 0.8:
        name = g.fresh(ret[1].dtype)
        g.emit("%s = %s" % (name, line), "helper")
        g.define(name, Var("reg", ret[1].dtype))
    else:
        g.emit(line, "helper")


def c_pyfor(g, budget, depth):
    if not g.chance("pyfor"):
        return False
    n = g.pick([2, 2, 3, 4, 4, 8])
    j = g.fresh(g.pick(["j", "i", "kk", "s", "w", "u"]))
    acc = None
    if g.chance("reglist", 0.4):
        acc = g.fresh(g.pick(["out", "parts", "res"]))
        g.emit("%s = []" % acc, "reglist")
    g.emit("for %s in range(%d):" % (j, n), "pyfor")
    if any(v.kind == "int" and v.n != 99 for _, v in g.visible(lambda v: True)):
        g.used.add("nested_for")
    g.ind += 1
    g.push()
    g.define(j, Var("int", n=n))
    g.loop_depth += 1
    t = g.fresh("f32")
    g.emit("%s = reg.scalar(f32)" % t)
    g.define(t, Var("reg", "f32"))
    if g.chance("py_if", 0.6):
        py_if(g, j, n, max(budget // 3, 1), depth)
    if g.chance("nested_for", 0.5) and depth < COMPOUND_DEPTH:
        c_pyfor(g, max(budget // 2, 2), depth + 1)
    block(g, budget - 2, depth)
    if acc:
        g.emit("%s.append(%s)" % (acc, t), "reglist")
    g.loop_depth -= 1
    g.pop()
    g.ind -= 1
    if acc:
        g.define(acc, Var("list", "f32", n=n))
    return True


def py_if(g, j, n, budget, depth):
    cond = g.pick(["%s == 0" % j, "%s %% 2 == 0" % j, "%s < %d" % (j, max(n - 1, 1)),
                   "%s == %d" % (j, n - 1), "%s > 0" % j])
    g.emit("if %s:" % cond, "py_if")
    body(g, budget, depth + 1)
    if g.rng.random() < 0.3:
        g.emit("else:")
        body(g, budget, depth + 1)


COMPOUND_W = [(c_if, 5), (c_loop, 3), (c_range, 2), (c_kloop, 2), (c_helper, 2), (c_pyfor, 5)]
COMPOUNDS = [c for c, _ in COMPOUND_W]


def kernel(g, name):
    """The whole file: imports, the decorated kernel, KERNEL and ARGS."""
    arch = "sm_100a" if "tcgen05" in g.on else "sm_90a"
    nin = g.rng.randint(1, 3)
    ins = ["X", "W", "B"][:nin]
    outs = ["Y"] if g.rng.random() < 0.8 else ["Y", "Z"]
    g.params = ins + outs
    for p in g.params:
        g.taken.add(p)
    raw = g.rng.random() < 0.3
    threads = g.pick([128, 256, 256, 512])
    head = ["from pyptx import Tile, kernel, ptx, reg, smem",
            "from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64", "",
            "", "@kernel(",
            "    in_specs=(%s)," % "".join("Tile(\"N\", f32), " for _ in ins).rstrip(" "),
            "    out_specs=(%s)," % "".join("Tile(\"N\", f32), " for _ in outs).rstrip(" "),
            "    grid=lambda N: (N // %d, 1, 1)," % threads,
            "    block=(%d, 1, 1)," % threads]
    if raw:
        head.append("    raw_params=[(\"u32\", \"n\")],")
    head += ["    arch=\"%s\"," % arch, ")", "def %s(%s, *, N=%d):" % (
        name, ", ".join(g.params), g.pick([4096, 1 << 16, 1 << 20]))]
    prologue(g, raw)
    main(g)
    g.emit("ptx.ret()")
    tail = ["", "", "KERNEL = %s" % name, "ARGS = {}", ""]
    return "\n".join(head + g.lines + tail)


def prologue(g, raw):
    ptrs = [p for p in g.params if g.rng.random() < 0.85] or g.params[-1:]
    names = [g.fresh("p" + p.lower()) for p in ptrs]
    g.emit("%s = ptx.global_ptrs(%s)" % (", ".join(names) + ("," if len(names) == 1 else ""),
                                         ", ".join(ptrs)))
    for n in names:
        g.define(n, Var("ptr", "b64"))
    tid = g.fresh("tid") if "tid" in g.taken else "tid"
    g.taken.add("tid")
    g.emit("%s = reg.from_(ptx.special.tid.x(), u32)" % tid, "from_")
    g.define(tid, Var("reg", "u32"))
    if g.rng.random() < 0.6:
        g.taken.add("bid")
        g.emit("bid = reg.from_(ptx.special.ctaid.x(), u32)", "from_")
        g.define("bid", Var("reg", "u32"))
    if raw:
        g.taken.add("n")
        g.emit("n = ptx.param(u32, \"n\")")
        g.define("n", Var("reg", "u32"))
    if g.chance("smem"):
        units.smem_alloc(g)


def main(g):
    total = g.rng.randint(12, 150)
    secs = [s for s in units.SECTIONS if s.__name__[2:] in g.on]
    g.rng.shuffle(secs)
    parts = len(secs) + 1
    for s in secs:
        block(g, total // parts)
        s(g)
    block(g, total // parts)
