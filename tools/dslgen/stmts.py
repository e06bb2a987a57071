"""Single statements of a generated kernel (see gen.py): each writes one to
three lines, of types pyptx accepts, or returns False where the names it
needs are not there."""
from gen import CONSTS, INT32, INT64, SHIFTS, Var, paren

FLOAT_BIN = ["add.f32", "sub.f32", "mul.f32", "max.f32", "min.f32", "add.rn.f32", "mul.rn.f32"]
FLOAT_UN = ["ex2.approx.f32", "rcp.approx.f32", "neg.f32", "abs.f32", "sqrt.approx.f32",
            "lg2.approx.f32"]
INT_BIN = [("add.u32", INT32), ("sub.s32", INT32), ("mul.lo.u32", INT32), ("mul.hi.u32", INT32),
           ("min.u32", INT32), ("max.s32", INT32), ("and_.b32", INT32), ("or_.b32", INT32),
           ("xor.b32", INT32), ("shl.b32", INT32), ("shr.u32", INT32), ("add.s64", INT64),
           ("and_.b64", INT64), ("rem.u32", INT32), ("div.u32", INT32)]
INT_UN = [("popc.b32", INT32), ("brev.b32", INT32), ("not_.b32", INT32), ("clz.b32", INT32),
          ("mov.b32", INT32), ("mov.u64", INT64), ("neg.s32", INT32)]


def dst(g, dtype, fresh=0.5):
    """A destination register of dtype: an existing one, or one declared
    here (`t = reg.scalar(f32)`)."""
    old = g.reg_or_none((dtype,))
    if old and g.rng.random() > fresh:
        return old
    name = g.fresh(dtype)
    g.emit("%s = reg.scalar(%s)" % (name, dtype))
    g.define(name, Var("reg", dtype))
    return name


def operand32(g):
    if g.rng.random() < 0.35:
        return g.const_expr()[0]
    return g.reg_or_none(INT32) or str(g.pick(CONSTS))


def pred_kw(g):
    if not g.chance("pred_inst", 0.3):
        return ""
    preds = g.regs(("pred",))
    if not preds:
        return ""
    g.used.add("pred_inst")
    p = g.pick(preds)
    return ", pred=%s" % (("~" + p) if g.rng.random() < 0.4 else p)


def s_assign(g):
    if not g.chance("ops"):
        return False
    width = 64 if g.chance("wide64", 0.3) else 32
    text, dt, prec = g.int_expr(width, g.pick([1, 2, 2, 3]))
    if " " not in text and "(" not in text:
        return False
    name = g.fresh(dt)
    g.emit("%s = %s" % (name, text), "ops")
    g.define(name, Var("reg", dt))
    return True


def s_cond_assign(g):
    """idx = base if j == 0 else base + j * K (a Python conditional)."""
    lv = g.int_loopvar()
    base = g.reg_or_none(INT32)
    if not (lv and base and g.chance("affine", 0.6)):
        return False
    name = g.fresh("u32")
    g.emit("%s = %s if %s == 0 else %s + %s * %d" % (
        name, base, lv[0], base, lv[0], g.pick([16, 128, 512, 4096])), "affine", "ops")
    g.define(name, Var("reg", g.lookup(base.split("[")[0]).dtype))
    return True


def s_augassign(g):
    if not g.chance("augassign"):
        return False
    cands = [n for n, v in g.visible(lambda v: v.kind in ("reg", "ptr") and v.dtype != "f32"
                                     and v.dtype != "pred") if g.assignable_peek(n)]
    if not cands:
        return False
    name = g.pick(cands)
    v = g.lookup(name)
    wide = v.kind == "ptr" or v.dtype in INT64
    op = g.pick(["+=", "+=", "<<=", "^=", "-=", "&=", ">>=", "*=", "|="] if not wide or v.kind != "ptr"
                else ["+=", "+=", "-="])
    if not g.assignable(name):
        return False
    if op in ("<<=", ">>="):
        rhs = str(g.pick(SHIFTS))
    elif wide and g.rng.random() < 0.5:
        g.used.add("ptr_offset")
        rhs = g.reg_or_none(INT32 + INT64) or g.const_expr()[0]
    elif g.rng.random() < 0.5:
        rhs = g.const_expr()[0]
    else:
        rhs = g.reg_or_none(INT64 if wide else INT32) or str(g.pick(CONSTS))
    g.emit("%s %s %s" % (name, op, rhs), "augassign")
    if wide:
        g.used.add("wide64")
    return True


def s_ptr_offset(g):
    ptrs = [n for n, v in g.visible(lambda v: v.kind == "ptr")]
    if not ptrs or not g.chance("ptr_offset"):
        return False
    p = g.pick(ptrs)
    name = g.fresh("p" + p.lstrip("p")[:1] if len(p) > 1 else "q")
    form = g.rng.random()
    if form < 0.4:
        text, dt, prec = g.int_expr(32, 1)
        g.emit("%s = %s + %s" % (name, p, paren(text, prec, 12)), "ptr_offset", "ops")
    elif form < 0.7:
        off = g.fresh("u64")
        src = g.reg_or_none(INT32) or "ptx.special.tid.x()"
        if g.chance("typed", 0.6):
            g.emit("%s = reg.scalar(u64)" % off)
            g.emit("ptx.mul(u32, %s, %s, %d, mode=\"wide\")" % (off, src, g.pick([2, 4, 8, 16])),
                   "typed")
        else:
            g.emit("%s = reg.scalar(u64)" % off)
            g.emit("ptx.inst.mul.wide.u32(%s, %s, %d)" % (off, src, g.pick([4, 8, 16])), "inst")
        g.define(off, Var("reg", "u64"))
        g.emit("%s = %s + %s" % (name, p, off), "ops", "wide64")
    else:
        g.emit("%s = %s + %s" % (name, p, g.const_expr()[0]), "ops", "wide64")
    g.define(name, Var("ptr", "b64"))
    return True


def s_scalar(g):
    if not g.chance("scalar_init"):
        return False
    dt = g.pick(["u32", "u32", "s32", "b32", "f32", "f32", "u64", "b64", "pred"])
    name = g.fresh(dt)
    if dt == "f32":
        g.emit("%s = reg.scalar(f32, init=%s)" % (name, g.pick(["0.0", "1.0", "-1.0", "0.125"])),
               "scalar_init")
    elif dt == "pred":
        g.emit("%s = reg.scalar(pred)" % name)
    else:
        g.emit("%s = reg.scalar(%s, init=%s)" % (name, dt, g.const_expr()[0]), "scalar_init")
    g.define(name, Var("reg", dt))
    return True


def s_from(g):
    if not g.chance("from_"):
        return False
    src = g.pick(["ptx.special.tid.x()", "ptx.special.ctaid.x()", "ptx.special.tid.y()",
                  "ptx.special.ntid.x()", "ptx.special.laneid()", "ptx.special.nctaid.x()",
                  None])
    dt = g.pick(["u32", "u32", "s32"])
    if src is None:
        src = g.reg_or_none(INT32) or "ptx.special.warpid()"
    name = g.fresh(dt)
    g.emit("%s = reg.from_(%s, %s)" % (name, src, dt), "from_")
    g.define(name, Var("reg", dt))
    return True


def s_array(g):
    arrays = g.visible(lambda v: v.kind == "array")
    if not g.chance("array"):
        return False
    if not arrays or g.rng.random() < 0.3:
        dt = g.pick(["u32", "b32", "f32"])
        name = g.fresh({"u32": "r", "b32": "rb", "f32": "fr"}[dt])
        g.emit("%s = reg.array(%s, %d)" % (name, dt, g.pick([2, 4, 8, 16])), "array")
        g.define(name, Var("array", dt, n=int(g.lines[-1].split(", ")[-1][:-1])))
        return True
    name, v = g.pick(arrays)
    k = g.rng.randrange(v.n)
    if v.dtype == "f32":
        a = g.reg_or_none(("f32",)) or "%s[%d]" % (name, (k + 1) % v.n)
        g.emit("ptx.inst.fma.rn.f32(%s[%d], %s, %s[%d], %s[%d])" % (
            name, k, a, name, (k + 1) % v.n, name, k), "inst", "float")
        return True
    text, dt, prec = g.int_expr(32, 1)
    g.emit("%s[%d] = %s" % (name, k, text), "array")
    return True


def s_float(g):
    if not g.chance("float"):
        return False
    f = g.regs(("f32",))
    form = g.rng.random()
    if form < 0.15 and g.regs(INT32):
        d = dst(g, "f32")
        if g.chance("typed", 0.5):
            g.emit("ptx.cvt(f32, u32, %s, %s, rounding=\"rn\")" % (d, g.reg_or_none(INT32)), "typed")
        else:
            g.emit("ptx.inst.cvt.rn.f32.u32(%s, %s)" % (d, g.reg_or_none(INT32)), "inst")
    elif not f:
        g.need_reg("f32")
        return True
    elif form < 0.55:
        d = dst(g, "f32", 0.4)
        g.emit("ptx.inst.%s(%s, %s, %s%s)" % (g.pick(FLOAT_BIN), d, g.pick(f), g.pick(
            f + ["1.0", "\"0f3F800000\""]), pred_kw(g)), "inst")
    elif form < 0.8:
        d = dst(g, "f32", 0.3)
        g.emit("ptx.inst.fma.rn.f32(%s, %s, %s, %s)" % (d, g.pick(f), g.pick(f), g.pick(f)),
               "inst")
    else:
        d = dst(g, "f32", 0.6)
        g.emit("ptx.inst.%s(%s, %s)" % (g.pick(FLOAT_UN), d, g.pick(f)), "inst")
    g.used.add("float")
    return True


def address(g, space="global"):
    """A ptx.addr(...) text in the space, or None."""
    if space == "shared":
        tiles = g.visible(lambda v: v.kind == "smem")
        if not tiles:
            return None
        t = g.pick(tiles)[0]
        return "ptx.addr(%s, %s)" % (t, byte_offset(g)) if g.rng.random() < 0.7 \
            else "ptx.addr(%s)" % t
    ptrs = [n for n, v in g.visible(lambda v: v.kind == "ptr")]
    if not ptrs:
        return None
    p = g.pick(ptrs)
    if g.rng.random() < 0.5:
        return "ptx.addr(%s)" % p
    return "ptx.addr(%s, %s)" % (p, byte_offset(g))


def byte_offset(g):
    """An aligned byte offset, a Python int, maybe affine in a loop variable."""
    lv = g.int_loopvar()
    if lv and g.chance("affine", 0.6):
        g.used.add("affine")
        k = g.pick([4, 16, 64, 128, 512])
        return g.pick(["%s * %d" % (lv[0], k), "%d + %s * %d" % (g.pick([4, 16, 256]), lv[0], k)])
    return str(g.pick([4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096]))


def s_load(g):
    a = address(g)
    if a is None:
        return False
    dt = g.pick(["f32", "f32", "u32"])
    d = dst(g, dt, 0.6)
    if g.chance("typed", 0.5):
        g.emit("ptx.ld(%s, %s, %s%s)" % (dt, d, a, pred_kw(g)), "typed")
    else:
        g.emit("ptx.inst.ld.global_.%s(%s, %s%s)" % (dt, d, a, pred_kw(g)), "inst")
    return True


def s_store(g):
    a = address(g)
    if a is None:
        return False
    dt = g.pick(["f32", "f32", "u32"])
    v = g.reg_or_none((dt,))
    if v is None:
        return False
    if g.chance("typed", 0.5):
        g.emit("ptx.st(%s, %s, %s%s)" % (dt, a, v, pred_kw(g)), "typed")
    else:
        g.emit("ptx.inst.st.global_.%s(%s, %s%s)" % (dt, a, v, pred_kw(g)), "inst")
    return True


def s_reglist(g):
    if not g.chance("reglist"):
        return False
    lists = g.visible(lambda v: v.kind == "list")
    if lists and g.rng.random() < 0.6:
        name, v = g.pick(lists)
        lv = g.int_loopvar()
        idx = lv[0] if lv and lv[1].n <= v.n and g.rng.random() < 0.6 else str(g.rng.randrange(v.n))
        if v.n == 4 and g.chance("v4", 0.5) and address(g):
            op = g.pick(["ld", "st"])
            a = address(g)
            if op == "ld":
                g.emit("ptx.inst.ld.global_.v4.f32(%s, %s)" % (name, a), "v4", "inst")
            else:
                g.emit("ptx.inst.st.global_.v4.f32(%s, %s)" % (a, name), "v4", "inst")
            return True
        f = g.regs(("f32",)) or ["%s[0]" % name]
        g.emit("ptx.inst.%s(%s[%s], %s[%s], %s)" % (
            g.pick(FLOAT_BIN[:3]), name, idx, name, idx, g.pick(f)), "reglist", "inst", "float")
        return True
    n = g.pick([2, 4, 4, 4, 8])
    name = g.fresh(g.pick(["g", "vals", "frag", "xs", "buf"]))
    g.emit("%s = [reg.scalar(f32) for _ in range(%d)]" % (name, n), "reglist")
    g.define(name, Var("list", "f32", n=n))
    return True


def s_typed(g):
    if not g.chance("typed"):
        return False
    r = g.rng.random()
    a, b = operand32(g), operand32(g)
    if r < 0.2:
        d = dst(g, "u32")
        g.emit("ptx.add(u32, %s, %s, %s%s)" % (d, g.reg_or_none(INT32) or "ptx.special.tid.x()",
                                                b, pred_kw(g)), "typed")
    elif r < 0.35:
        x = g.reg_or_none(INT32)
        if x is None:
            return False
        if g.rng.random() < 0.5:
            d = g.fresh("u32")
            g.emit("%s = ptx.mad(%s, %s, %s)" % (d, x, g.pick(CONSTS), b), "typed")
            g.define(d, Var("reg", g.lookup(x.split("[")[0]).dtype))
        else:
            d = dst(g, "u32")
            g.emit("ptx.mad(u32, %s, %s, %s, %s)" % (d, x, a, b), "typed")
    elif r < 0.5:
        p = g.reg_or_none(("pred",))
        if p is None:
            return False
        d = dst(g, "u32")
        g.emit("ptx.selp(u32, %s, %s, %s, %s)" % (d, a, b, p), "typed")
    elif r < 0.6:
        p = dst(g, "pred", 0.5) if g.regs(("pred",)) else None
        x = g.reg_or_none(INT32)
        if p is None or x is None:
            return False
        g.emit("ptx.setp(\"%s\", u32, %s, %s, %s)" % (g.pick(["lt", "ge", "ne", "eq"]), p, x, b),
               "typed")
    elif r < 0.75:
        op, t = g.pick([("shl", "b32"), ("shr", "u32"), ("and_", "b32"), ("or_", "b32"),
                        ("xor_", "b32"), ("sub", "s32"), ("mov", None)])
        x = g.reg_or_none(INT32)
        if x is None:
            return False
        d = dst(g, "u32")
        if op == "mov":
            g.emit("ptx.mov(u32, %s, %s)" % (d, a), "typed")
        else:
            rhs = str(g.pick(SHIFTS)) if op in ("shl", "shr") else b
            g.emit("ptx.%s(%s, %s, %s, %s)" % (op, t, d, x, rhs), "typed")
    else:
        x = g.reg_or_none(INT32)
        if x is None:
            return False
        d = dst(g, "u64", 0.7)
        g.emit("ptx.mul(u32, %s, %s, %s, mode=\"wide\")" % (d, x, g.pick([4, 8, 16, 128])),
               "typed", "wide64")
    return True


def s_inst(g):
    if not g.chance("inst"):
        return False
    if g.rng.random() < 0.7:
        op, tys = g.pick(INT_BIN)
        x = g.reg_or_none(tys)
        if x is None:
            return False
        d = dst(g, g.pick(tys), 0.5)
        rhs = str(g.pick(SHIFTS)) if op[:3] in ("shl", "shr") else (
            g.reg_or_none(tys) or str(g.pick(CONSTS)) if g.rng.random() < 0.6
            else g.const_expr()[0])
        g.emit("ptx.inst.%s(%s, %s, %s%s)" % (op, d, x, rhs, pred_kw(g)), "inst")
    elif g.rng.random() < 0.5:
        op, tys = g.pick(INT_UN)
        x = g.reg_or_none(tys)
        if x is None:
            return False
        g.emit("ptx.inst.%s(%s, %s)" % (op, dst(g, tys[0], 0.5), x), "inst")
    else:
        x = g.reg_or_none(("u32", "b32"))
        if x is None:
            return False
        d = dst(g, "b32", 0.6)
        g.emit("ptx.inst.shfl.sync.bfly.b32(%s, %s, %d, 31, -1)" % (d, x, g.pick([1, 2, 4, 8, 16])),
               "inst")
    return True


def s_warp(g):
    if not g.chance("warp_reduce"):
        return False
    v = g.reg_or_none(("f32", "u32"))
    if v is None or "[" in v:
        return False
    op = g.pick(["reduce_sum", "reduce_sum", "reduce_max", "reduce_min"])
    w = "" if g.rng.random() < 0.6 else ", width=%d" % g.pick([4, 8, 16])
    g.emit("ptx.warp.%s(%s%s)" % (op, v, w), "warp_reduce")
    return True


def s_bar(g):
    if not g.chance("bar", 0.5):
        return False
    g.emit(g.pick(["ptx.bar.sync(0)", "ptx.bar.sync(0)", "ptx.bar.sync(1, 128)"]), "bar")
    return True


def s_smem(g):
    tiles = g.visible(lambda v: v.kind == "smem")
    if not tiles or not g.chance("smem"):
        return False
    name, v = g.pick(tiles)
    r = g.rng.random()
    if len(v.shape) == 2 and r < 0.6:
        row = g.reg_or_none(("u32",)) or str(g.rng.randrange(v.shape[0]))
        col = g.pick([g.reg_or_none(("u32",)) or "0", str(g.rng.randrange(v.shape[1]))])
        if g.rng.random() < 0.5:
            val = g.fresh(v.dtype)
            g.emit("%s = %s[%s, %s]" % (val, name, row, col), "smem")
            g.define(val, Var("reg", v.dtype))
        else:
            src = g.reg_or_none((v.dtype,))
            if src is None:
                return False
            g.emit("%s[%s, %s] = %s" % (name, row, col, src), "smem")
        return True
    a = address(g, "shared")
    if g.rng.random() < 0.5:
        d = dst(g, v.dtype, 0.6)
        if g.chance("typed", 0.5):
            g.emit("ptx.ld(%s, %s, %s, space=\"shared\")" % (v.dtype, d, a), "smem", "typed")
        else:
            g.emit("ptx.inst.ld.shared.%s(%s, %s)" % (v.dtype, d, a), "smem", "inst")
    else:
        src = g.reg_or_none((v.dtype,))
        if src is None:
            return False
        g.emit("ptx.inst.st.shared.%s(%s, %s)" % (v.dtype, a, src), "smem", "inst")
    return True


SIMPLE = [(s_assign, 6), (s_augassign, 4), (s_ptr_offset, 2), (s_scalar, 2), (s_from, 1),
          (s_array, 1), (s_float, 4), (s_load, 3), (s_store, 2), (s_reglist, 2), (s_typed, 3),
          (s_inst, 3), (s_warp, 1), (s_bar, 1), (s_smem, 2), (s_cond_assign, 1)]
