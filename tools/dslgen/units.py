"""Sections a kernel writes once, at its top level (see gen.py): shared
memory, mbarriers, a pipelined loop, wgmma, TMA, tcgen05, cp.async.  Each
is the DSL's own helpers, used as their docstrings say, with some of the
freedom a person takes (which barrier, which phase, a Python loop or not)."""
import sections
from gen import INT32, Var


def smem_alloc(g):
    dt = g.pick(["f32", "f32", "u32"])
    name = g.fresh(g.pick(["tile", "sbuf", "stage", "sh"]))
    if g.rng.random() < 0.6:
        shape = (g.pick([8, 16, 32]), g.pick([32, 33, 64]))
        text = "(%d, %d)" % shape
    else:
        shape = (g.pick([128, 256, 1024]),)
        text = str(shape[0])
    named = ", name=\"%s\"" % name if g.rng.random() < 0.3 else ""
    g.emit("%s = smem.alloc(%s, %s%s)" % (name, dt, text, named), "smem")
    g.define(name, Var("smem", dt, shape=shape))


def tid(g):
    return g.lookup("tid") and "tid" or g.need_reg("u32")


def bars(g, n=2):
    have = g.visible(lambda v: v.kind == "bars")
    if have:
        return have[0][0], have[0][1].n
    name = g.fresh(g.pick(["bar", "mbar", "bars"]))
    g.emit("%s = smem.mbarrier(%d)" % (name, n), "mbarrier")
    g.define(name, Var("bars", n=n))
    return name, n


def init_bars(g, name, n, count=1):
    g.emit("with ptx.if_(%s == 0):" % tid(g), "if_")
    g.ind += 1
    if g.rng.random() < 0.5:
        for i in range(n):
            g.emit("ptx.mbarrier.init(%s[%d], %d)" % (name, i, count), "mbarrier")
    else:
        i = g.fresh("i")
        g.emit("for %s in range(%d):" % (i, n), "pyfor")
        g.emit("    ptx.mbarrier.init(%s[%s], %d)" % (name, i, count), "mbarrier")
    g.ind -= 1
    g.emit(g.pick(["ptx.fence.proxy_async_shared_cta()", "ptx.fence.mbarrier_init()",
                   "ptx.fence.proxy_async()"]))
    g.emit("ptx.bar.sync(0)", "bar")


def u_mbarrier(g):
    name, n = bars(g, g.pick([1, 2, 4]))
    init_bars(g, name, n)
    phase = g.fresh(g.pick(["phase", "ph", "parity"]))
    g.emit("%s = reg.scalar(u32, init=0)" % phase, "scalar_init")
    g.define(phase, Var("reg", "u32"))
    for _ in range(g.rng.randint(1, 3)):
        k = g.rng.randrange(n)
        r = g.rng.random()
        if r < 0.3:
            g.emit("with ptx.if_(%s == 0):" % tid(g), "if_")
            g.emit("    ptx.mbarrier.arrive_expect_tx(%s[%d], %d)" % (
                name, k, g.pick([1024, 4096, 8192])), "mbarrier")
        elif r < 0.55:
            st = g.fresh("state")
            g.emit("%s = ptx.mbarrier.arrive(%s[%d])" % (st, name, k), "mbarrier")
        elif r < 0.85:
            g.emit("ptx.mbarrier.wait(%s[%d], %s)" % (name, k, g.pick([phase, "0", "1"])),
                   "mbarrier")
        else:
            g.emit("%s[%d].wait(%s)" % (name, k, phase) if False else
                   "ptx.mbarrier.wait(%s[%d], %s)" % (name, k, phase), "mbarrier")
        sections.block(g, g.rng.randint(0, 4), 2)
    g.emit("%s ^= 1" % phase, "augassign")


def u_pipeline(g):
    s = g.pick([2, 3, 4])
    mem, _ = g.fresh("bar_mem"), None
    g.emit("%s = smem.mbarrier(%d)" % (mem, 2 * s), "mbarrier")
    full, empty = g.fresh("full"), g.fresh("empty")
    g.emit("%s = ptx.mbarrier.array(%s, 0, %d)" % (full, mem, s), "pipeline")
    g.emit("%s = ptx.mbarrier.array(%s, %d, %d)" % (empty, mem, 8 * s, s), "pipeline")
    g.emit("with ptx.if_(%s == 0):" % tid(g), "if_")
    g.emit("    %s.init_all(1)" % full, "pipeline")
    g.emit("    %s.init_all(%d)" % (empty, g.pick([1, 128])), "pipeline")
    g.emit("ptx.fence.proxy_async_shared_cta()")
    g.emit("ptx.bar.sync(0)", "bar")
    ring = g.fresh("ring")
    g.emit("%s = ptx.pipeline(%d)" % (ring, s), "pipeline")
    it, more = g.fresh("it"), g.fresh("more")
    g.emit("%s = reg.scalar(u32, init=0)" % it, "scalar_init")
    g.emit("%s = reg.scalar(pred)" % more)
    g.emit("with ptx.loop(%s, pred=%s):" % (g.label("mainloop"), more), "loop")
    g.ind += 1
    g.push()
    stage, phase = g.fresh("stage"), g.fresh("phase")
    g.emit("%s, %s = %s.advance()" % (stage, phase, ring), "pipeline")
    g.define(stage, Var("reg", "u32"))
    g.emit("%s.at(%s).wait(%s)" % (full, stage, phase), "pipeline", "mbarrier")
    sections.block(g, g.rng.randint(2, 10), 2)
    g.emit("%s.at(%s).arrive()" % (empty, stage), "pipeline")
    g.emit("%s += 1" % it, "augassign")
    g.emit("ptx.setp(\"lt\", u32, %s, %s, %d)" % (more, it, g.pick([8, 16, 64])), "typed")
    g.pop()
    g.ind -= 1


def u_wgmma(g):
    n = g.pick([16, 32, 64])
    a, b, acc = g.fresh("sA"), g.fresh("sB"), g.fresh("acc")
    g.emit("%s = smem.wgmma_tile(bf16, (64, 16), major=\"K\")" % a, "wgmma")
    g.emit("%s = smem.wgmma_tile(bf16, (16, %d), major=\"MN\")" % (b, n), "wgmma")
    g.emit("%s = reg.wgmma_frag(m=64, n=%d, dtype=f32)" % (acc, n), "wgmma")
    opa, opb = a, b
    if g.rng.random() < 0.4:
        da, db = g.fresh("desc_a"), g.fresh("desc_b")
        g.emit("%s = ptx.wgmma.auto_descriptor(%s, dtype=bf16, shape=(64, 16), major=\"K\")"
               % (da, a), "wgmma")
        g.emit("%s = ptx.wgmma.make_descriptor(%s, leading_byte_offset=%d, "
               "stride_byte_offset=%d, swizzle=ptx.wgmma.SWIZZLE_%s)" % (
                   db, b, g.pick([16, 128]), g.pick([256, 512, 1024]),
                   g.pick(["NONE", "128B", "64B"])), "wgmma")
        opa, opb = da, db
    g.emit("ptx.wgmma.fence()", "wgmma")
    steps = g.pick([1, 2, 4])
    if steps == 1:
        g.emit("ptx.wgmma.mma_async(shape=(64, %d, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,"
               " d=%s, a=%s, b=%s, scale_d=%s, trans_b=1)" % (
                   n, acc, opa, opb, g.pick(["True", "False"])), "wgmma")
    else:
        kk = g.fresh("kk")
        g.emit("for %s in range(%d):" % (kk, steps), "pyfor")
        g.emit("    ptx.wgmma.mma_async(shape=(64, %d, 16), dtype_d=f32, dtype_a=bf16, "
               "dtype_b=bf16, d=%s, a=%s, b=%s, scale_d=%s > 0, trans_b=1)" % (
                   n, acc, a, b, kk), "wgmma")
    g.emit("ptx.wgmma.commit_group()", "wgmma")
    g.emit("ptx.wgmma.wait_group(0)", "wgmma")
    g.define(acc, Var("array", "f32", n=n // 2))


def u_tma(g):
    name, n = bars(g, 1)
    src, dstp = g.params[0], g.params[-1]
    t = g.fresh("sT")
    g.emit("%s = smem.alloc(bf16, (64, 64))" % t, "smem")
    row = g.reg_or_none(("u32",)) or "0"
    init_bars(g, name, n)
    g.emit("with ptx.if_(%s == 0):" % tid(g), "if_")
    g.ind += 1
    g.emit("ptx.mbarrier.arrive_expect_tx(%s[0], 8192)" % name, "mbarrier")
    if g.rng.random() < 0.6:
        g.emit("ptx.cp.async_.bulk.tensor_2d(dst=%s[0], src=%s.tma_desc(), coord=(0, %s), "
               "mbar=%s[0])" % (t, src, row, name), "tma")
    else:
        g.emit("ptx.tma.load_3d(%s, %s.tma_desc(), %s, %s, %s[0])" % (
            t, src, row, g.pick(["0", "64", row]), name), "tma")
    g.ind -= 1
    g.emit("ptx.mbarrier.wait(%s[0], 0)" % name, "mbarrier")
    sections.block(g, g.rng.randint(1, 6), 2)
    if g.rng.random() < 0.7:
        g.emit("ptx.fence.proxy_async_shared_cta()")
        g.emit("ptx.cp.async_.bulk.tensor_2d.store(dst=%s.tma_desc(), src=%s, coord=(0, %s))"
               % (dstp, t, row), "tma")
        g.emit("ptx.cp.async_.bulk.commit_group()", "tma")
        g.emit("ptx.cp.async_.bulk.wait_group(0)", "tma")


def u_tcgen05(g):
    name, n = bars(g, 1)
    slot, taddr = g.fresh("tmem_slot"), g.fresh("taddr")
    cols = g.pick([32, 64, 128])
    g.emit("%s = smem.alloc(u32, 1)" % slot, "smem")
    g.emit("with ptx.if_(%s < 32):" % tid(g), "if_")
    g.emit("    ptx.tcgen05.alloc(%s, %d)" % (slot, cols), "tcgen05")
    g.emit("    ptx.tcgen05.relinquish_alloc_permit()", "tcgen05")
    g.emit("ptx.tcgen05.fence_before_thread_sync()", "tcgen05")
    g.emit("ptx.bar.sync(0)", "bar")
    g.emit("ptx.tcgen05.fence_after_thread_sync()", "tcgen05")
    g.emit("%s = reg.scalar(u32)" % taddr)
    g.emit("ptx.ld(u32, %s, %s, space=\"shared\")" % (taddr, slot), "typed", "smem")
    g.define(taddr, Var("reg", "u32"))
    a, b = g.fresh("sA"), g.fresh("sB")
    g.emit("%s = smem.alloc(bf16, (128, 64))" % a, "smem")
    g.emit("%s = smem.alloc(bf16, (128, 64))" % b, "smem")
    da, db, idesc = g.fresh("adesc"), g.fresh("bdesc"), g.fresh("idesc")
    g.emit("%s = ptx.tcgen05.descriptor(%s, stride_bytes=1024)" % (da, a), "tcgen05")
    g.emit("%s = ptx.tcgen05.descriptor(%s, stride_bytes=1024, byte_offset=%d)" % (
        db, b, g.pick([0, 32, 64])), "tcgen05")
    g.emit("%s = reg.scalar(u32, init=ptx.tcgen05.make_instr_desc_f16bf16_f32(m=128, n=%d))"
           % (idesc, g.pick([64, 128, 256])), "tcgen05", "scalar_init")
    g.emit("with ptx.if_(%s == 0):" % tid(g), "if_")
    g.emit("    ptx.tcgen05.mma(%s, %s, %s, %s, kind=\"f16\", scale_d=%s)" % (
        taddr, da, db, idesc, g.pick(["False", "True"])), "tcgen05")
    g.emit("    ptx.tcgen05.commit(%s[0])" % name, "tcgen05")
    g.emit("ptx.mbarrier.wait(%s[0], 0)" % name, "mbarrier")
    out = g.fresh("vals")
    cnt = g.pick([4, 8])
    g.emit("%s = [reg.scalar(f32) for _ in range(%d)]" % (out, cnt), "reglist")
    g.emit("ptx.tcgen05.ld(%s, %s, shape=\"32x32b\", count=%d)" % (out, taddr, cnt), "tcgen05")
    g.emit("ptx.tcgen05.wait_ld()", "tcgen05")
    g.define(out, Var("list", "f32", n=cnt))
    sections.block(g, g.rng.randint(1, 5), 2)
    g.emit("with ptx.if_(%s < 32):" % tid(g), "if_")
    g.emit("    ptx.tcgen05.dealloc(%s, %d)" % (taddr, cols), "tcgen05")


def u_cp_async(g):
    sh = g.visible(lambda v: v.kind == "smem")
    ptrs = [m for m, v in g.visible(lambda v: v.kind == "ptr")]
    if not sh or not ptrs:
        return
    t = sh[0][0]
    off = g.reg_or_none(INT32)
    for j in range(g.rng.randint(1, 3)):
        g.emit("ptx.cp.async_.%s(ptx.addr(%s, %d), ptx.addr(%s, %d), 16)" % (
            g.pick(["cg", "ca"]), t, 16 * j, g.pick(ptrs), 16 * j), "cp_async")
    g.emit("ptx.cp.async_.commit_group()", "cp_async")
    g.emit(g.pick(["ptx.cp.async_.wait_group(0)", "ptx.cp.async_.wait_all()"]), "cp_async")
    g.emit("ptx.bar.sync(0)", "bar")
    del off


SECTIONS = [u_mbarrier, u_pipeline, u_wgmma, u_tma, u_tcgen05, u_cp_async]
