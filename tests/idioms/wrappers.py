#!/usr/bin/env python3
"""The "calls" sugar pass against pyptx 0.1.1's own typed wrappers.

    wrappers.py CODEGEN

pyptx is the oracle.  This script calls every typed wrapper the pass knows
(ptx.add, ptx.setp, ptx.ld, ptx.wgmma.fence, ...) with every value of its
arguments' domains, and more (types pyptx has, modes, roundings, spaces,
caches, including ones the wrapper or pyptx's spec rejects), inside one
traced kernel.  A call pyptx rejects is emitted through ptx.inst instead.
Every instruction is recorded with the pyptx function that emitted it.

Then `CODEGEN --sugar=calls` decompiles the traced module, the result is
traced again under the same recorder, and the two recordings must agree
instruction by instruction: the same instruction (opcode, modifiers,
operands, guard), emitted by the same pyptx function.  So the pass writes
an instruction as a wrapper exactly when pyptx's wrapper emits it and
accepts it, and the pass's tables cannot drift from the DSL.  The last
line is `N passed, N failed` (one case per instruction)."""
import itertools
import sys

import oracle

import pyptx.ptx as P
import pyptx.smem as S
from pyptx import kernel, ptx, reg, smem
from pyptx.ir.nodes import AddressOperand
import pyptx.types as T

TYPES = [v for v in vars(T).values() if isinstance(v, T.PtxType)]
RECORD = []
_emit = P._emit


def recording_emit(opcode, modifiers, operands, pred=None):
    """Records (caller, instruction) once pyptx has accepted it."""
    caller = sys._getframe(1).f_code.co_name
    up = sys._getframe(2).f_code
    if caller == "__call__" and up.co_filename == P.__file__:
        caller = up.co_name   # a helper that goes through ptx.inst: ptx.param
    # ptx._emit finds the escape hatch by its caller's frame: keep that
    # frame the caller by calling from one that looks the same
    n = len(RECORD)
    _emit_as(caller, opcode, modifiers, operands, pred)
    RECORD.insert(n, (caller, opcode, tuple(modifiers),
                      tuple(repr(P._op(o)) for o in operands), repr(P._pred(pred))))


def _emit_as(caller, opcode, modifiers, operands, pred):
    if caller == "__call__":
        P._GenericInst(opcode, tuple(modifiers)).__wrapped_call__(operands, pred)
    else:
        _emit(opcode, modifiers, operands, pred=pred)


def _generic_call(self, operands, pred):
    _emit(self._opcode, self._modifiers, operands, pred=pred)


# the escape hatch as pyptx has it, reachable without recursing into the
# recorder; pyptx tells it apart by a frame named __call__ in ptx.py
_generic_call.__code__ = _generic_call.__code__.replace(
    co_name="__call__", co_filename=P.__file__)
P._GenericInst.__wrapped_call__ = _generic_call
P._emit = recording_emit
_store = S.store


def store(dtype, address, value):
    """smem.store, which emits without ptx._emit: recorded the same way."""
    n = len(RECORD)
    _store(dtype, address, value)
    a = address if isinstance(address, AddressOperand) else ptx.addr(address)
    RECORD.insert(n, ("store", "st", (".shared", dtype.ptx),
                      (repr(P._op(a)), repr(P._op(value))), repr(P._pred(None))))


S.store = store


def cases(r, rd, p):
    """(wrapper call, equivalent ptx.inst opcode and modifiers, operands)"""
    ops3 = (r[1], r[2], r[3])
    for t in TYPES:
        for name, op, ops in (("mov", "mov", ops3[:2]), ("not_", "not", ops3[:2]),
                              ("add", "add", ops3), ("sub", "sub", ops3),
                              ("shl", "shl", ops3), ("shr", "shr", ops3),
                              ("and_", "and", ops3), ("or_", "or", ops3),
                              ("xor_", "xor", ops3)):
            yield (lambda f=getattr(ptx, name), t=t, ops=ops: f(t, *ops)), op, (t.ptx,), ops
        for mode in (None, "lo", "hi", "wide"):
            mods = ((f".{mode}",) if mode else ()) + (t.ptx,)
            yield (lambda t=t, mode=mode: ptx.mul(t, *ops3, mode=mode)), "mul", mods, ops3
        for mode in ("lo", "hi", "wide"):
            ops4 = ops3 + (r[4],)
            yield (lambda t=t, mode=mode: ptx.mad(t, *ops4, mode=mode)), "mad", \
                (f".{mode}", t.ptx), ops4
        for cmp in ("lt", "le", "gt", "ge", "eq", "ne", "ltu", "lo"):
            ops = (p[1], r[2], r[3])
            yield (lambda t=t, cmp=cmp, ops=ops: ptx.setp(cmp, t, *ops)), "setp", \
                (f".{cmp}", t.ptx), ops
        for sp, ca in itertools.product(("global", "shared", "local", "param", "const",
                                         "generic", "shared::cta"),
                                        (None, "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt")):
            mods = (() if sp == "generic" else (f".{sp}",)) + ((f".{ca}",) if ca else ()) + (t.ptx,)
            a = ptx.addr(rd[1], 8)
            yield (lambda t=t, sp=sp, ca=ca, a=a: ptx.ld(t, r[1], a, space=sp, cache=ca)), \
                "ld", mods, (r[1], a)
            if sp == "shared" and ca is None:     # the helper smem.py has for it
                yield (lambda t=t, a=a: smem.store(t, a, r[1])), "st", mods, (a, r[1])
            else:
                yield (lambda t=t, sp=sp, ca=ca, a=a: ptx.st(t, a, r[1], space=sp, cache=ca)), \
                    "st", mods, (a, r[1])
        # a whole parameter: ptx.param; one with an array part: ptx.ld
        yield (lambda t=t: ptx.param(t, "pa", r[1])), "ld", (".param", t.ptx), \
            (r[1], ptx.addr("pa"))
        yield (lambda t=t: ptx.ld(t, r[1], ptx.addr("parr"), space="param")), "ld", \
            (".param", t.ptx), (r[1], ptx.addr("parr"))
    for t1, t2 in itertools.product(TYPES, (T.f32, T.f16, T.s32, T.u8, T.bf16)):
        for rnd in (None, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", "rs"):
            for ftz, sat in itertools.product((False, True), (False, True)):
                mods = tuple(f".{m}" for m, on in ((rnd, rnd), ("ftz", ftz), ("sat", sat)) if on)
                yield (lambda t1=t1, t2=t2, rnd=rnd, ftz=ftz, sat=sat:
                       ptx.cvt(t1, t2, r[1], r[2], rounding=rnd, ftz=ftz, sat=sat)), \
                    "cvt", mods + (t1.ptx, t2.ptx), (r[1], r[2])
    for g in (None, p[1], ~p[2]):
        yield (lambda g=g: ptx.ret(pred=g)), "ret", (), (), g
        yield (lambda g=g: ptx.bra("L", pred=g)), "bra", (), ("L",), g
        yield (lambda g=g: ptx.add(T.s32, *ops3, pred=g)), "add", (".s32",), ops3, g
        yield (lambda g=g: ptx.setp("lt", T.s32, p[1], r[2], 3, pred_negate=g)), "setp", \
            (".lt", ".s32"), (p[1], r[2], 3), g
    for t in TYPES:
        yield (lambda t=t: ptx.selp(t, r[1], r[2], 3, p[1])), "selp", (t.ptx,), (r[1], r[2], 3, p[1])
    for args in ((0,), (1, 64), (r[1],), (r[1], r[2])):
        yield (lambda args=args: ptx.bar.sync(*args)), "bar", (".sync",), args
    yield (lambda: ptx.fence.proxy_async()), "fence", (".proxy", ".async"), ()
    yield (lambda: ptx.fence.proxy_async_shared_cta()), "fence", (".proxy", ".async", ".shared::cta"), ()
    yield (lambda: ptx.fence.mbarrier_init()), "fence", (".mbarrier_init", ".release", ".cluster"), ()
    yield (lambda: ptx.wgmma.fence()), "wgmma", (".fence", ".sync", ".aligned"), ()
    yield (lambda: ptx.wgmma.commit_group()), "wgmma", (".commit_group", ".sync", ".aligned"), ()
    for n in (0, 1, r[3]):
        yield (lambda n=n: ptx.wgmma.wait_group(n)), "wgmma", \
            (".wait_group", ".sync", ".aligned"), (n,)
    yield (lambda: ptx.cp.async_.commit_group()), "cp", (".async", ".commit_group"), ()
    yield (lambda: ptx.cp.async_.wait_group(2)), "cp", (".async", ".wait_group"), (2,)
    yield (lambda: ptx.cp.async_.wait_all()), "cp", (".async", ".wait_all"), ()
    a, b = ptx.addr(r[1]), ptx.addr(rd[1], 16)
    tm3 = P._make_tma_address(rd[2], (0, r[2], r[3]))
    yield (lambda: ptx.tma.load_3d(a, rd[2], mbar=b, coords=(0, r[2], r[3]))), "cp", \
        (".async", ".bulk", ".tensor", ".3d", ".shared::cluster", ".global", ".tile",
         ".mbarrier::complete_tx::bytes"), (a, tm3, b)
    yield (lambda: ptx.tma.load_3d_multicast(a, rd[2], mbar=b, mask=r[4], coords=(0, r[2], r[3]))), \
        "cp", (".async", ".bulk", ".tensor", ".3d", ".shared::cluster", ".global", ".tile",
               ".mbarrier::complete_tx::bytes", ".multicast::cluster"), (a, tm3, b, r[4])
    yield (lambda: ptx.tma.store_3d(rd[2], a, coords=(0, r[2], r[3]))), "cp", \
        (".async", ".bulk", ".tensor", ".3d", ".global", ".shared::cta", ".tile", ".bulk_group"), \
        (tm3, a)
    for n in (4, 8, 16):
        yield (lambda n=n: ptx.cp.async_.cg(a, b, n)), "cp", (".async", ".cg", ".shared", ".global"), \
            (a, b, n)
        yield (lambda n=n: ptx.cp.async_.ca(a, b, n)), "cp", (".async", ".ca", ".shared", ".global"), \
            (a, b, n)
    yield (lambda: ptx.mbarrier.init(a, 1)), "mbarrier", (".init", ".shared::cta", ".b64"), (a, 1)
    yield (lambda: ptx.mbarrier.inval(a)), "mbarrier", (".inval", ".shared", ".b64"), (a,)
    for tx in (1024, r[2]):
        yield (lambda tx=tx: ptx.mbarrier.expect_tx(a, tx)), "mbarrier", \
            (".expect_tx", ".shared", ".b64"), (a, tx)
    for cg in (1, 2):
        yield (lambda cg=cg: ptx.tcgen05.alloc(a, 64, cta_group=cg)), "tcgen05", \
            (".alloc", ".cta_group::%d" % cg, ".sync", ".aligned", ".shared::cta", ".b32"), (a, 64)
        yield (lambda cg=cg: ptx.tcgen05.dealloc(r[1], 64, cta_group=cg)), "tcgen05", \
            (".dealloc", ".cta_group::%d" % cg, ".sync", ".aligned", ".b32"), (r[1], 64)
        yield (lambda cg=cg: ptx.tcgen05.relinquish_alloc_permit(cta_group=cg)), "tcgen05", \
            (".relinquish_alloc_permit", ".cta_group::%d" % cg, ".sync", ".aligned"), ()
        for space in ("cta", "cluster"):
            yield (lambda cg=cg, space=space: ptx.tcgen05.commit(b, cta_group=cg, space=space)), \
                "tcgen05", (".commit", ".cta_group::%d" % cg, ".mbarrier::arrive::one",
                            ".shared::" + space, ".b64"), (b,)
    yield (lambda: ptx.tcgen05.fence_before_thread_sync()), "tcgen05", (".fence::before_thread_sync",), ()
    yield (lambda: ptx.tcgen05.fence_after_thread_sync()), "tcgen05", (".fence::after_thread_sync",), ()
    yield (lambda: ptx.tcgen05.wait_ld()), "tcgen05", (".wait::ld", ".sync", ".aligned"), ()
    yield (lambda: ptx.tcgen05.wait_st()), "tcgen05", (".wait::st", ".sync", ".aligned"), ()
    for shape in ("16x64b", "16x128b", "16x256b", "32x32b", "16x32bx2"):
        for count in (1, 4, 64):
            for pk in (False, True):
                frag = [r[i % 8] for i in range(count)]
                mods = (".ld", ".sync", ".aligned", "." + shape, ".x%d" % count, ".b32") + \
                    ((".pack::16b",) if pk else ())
                yield (lambda shape=shape, count=count, pk=pk, frag=frag:
                       ptx.tcgen05.ld(frag, a, shape=shape, count=count, pack=pk)), "tcgen05", \
                    mods, (frag, a)
                mods = (".st", ".sync", ".aligned", "." + shape, ".x%d" % count, ".b32") + \
                    ((".unpack::16b",) if pk else ())
                yield (lambda shape=shape, count=count, pk=pk, frag=frag:
                       ptx.tcgen05.st(a, frag, shape=shape, count=count, unpack=pk)), "tcgen05", \
                    mods, (a, frag)
    for nd in range(1, 6):
        tensor = getattr(ptx.cp.async_.bulk, "tensor_%dd" % nd)
        coord = tuple([r[2], 64, r[3], 0, 7][:nd])
        tmap = P._make_tma_address(rd[1], coord)
        load = (".async", ".bulk", ".tensor", ".%dd" % nd, ".shared::cluster", ".global",
                ".mbarrier::complete_tx::bytes")
        yield (lambda tensor=tensor, coord=coord: tensor(dst=a, src=rd[1], coord=coord, mbar=b)), \
            "cp", load, (a, tmap, b)
        yield (lambda tensor=tensor, coord=coord:
               tensor(dst=a, src=rd[1], coord=coord, mbar=b, multicast_mask=r[4])), \
            "cp", load + (".multicast::cluster",), (a, tmap, b, r[4])
        yield (lambda tensor=tensor, coord=coord: tensor.store(dst=rd[1], coord=coord, src=a)), \
            "cp", (".async", ".bulk", ".tensor", ".%dd" % nd, ".global", ".shared::cta",
                   ".bulk_group"), (tmap, a)
        yield (lambda tensor=tensor, coord=coord:
               tensor(dst=a, src=rd[1], coord=coord, mbar=b, cta_group=2)), \
            "cp", load[:4] + (".cta_group::2",) + load[4:], (a, tmap, b)
    for n in (40, 232):
        yield (lambda n=n: ptx.setmaxnreg_inc(n)), "setmaxnreg", (".inc", ".sync", ".aligned", ".u32"), (n,)
        yield (lambda n=n: ptx.setmaxnreg_dec(n)), "setmaxnreg", (".dec", ".sync", ".aligned", ".u32"), (n,)
    for mask in (-1, r[3]):
        yield (lambda mask=mask: ptx.elect_sync(r[1], p[1], mask)), "elect", (".sync",), \
            (P.PipeRef(r[1], p[1]), mask)
    # every type in each position, beside the usual combinations
    combos = [((16, 8, 16), T.f32, T.bf16, T.f32), ((16, 8, 16), T.f32, T.f16, T.f32),
              ((16, 8, 8), T.f32, T.tf32, T.f32), ((16, 8, 32), T.s32, T.s8, T.s32),
              ((16, 8, 16), T.f16, T.f16, T.f16)]
    combos += [((16, 8, 16), t, T.bf16, T.f32) for t in TYPES]
    combos += [((16, 8, 16), T.f32, t, T.f32) for t in TYPES]
    combos += [((16, 8, 16), T.f32, T.bf16, t) for t in TYPES]
    for shape, td, ta, tc in combos:
        for la, lb in (("row", "col"), ("col", "row")):
            d, fa, fb = [r[i] for i in range(4)], [r[i] for i in range(4)], [r[i] for i in range(2)]
            m, n, k = shape
            yield (lambda shape=shape, td=td, ta=ta, tc=tc, la=la, lb=lb, d=d, fa=fa, fb=fb:
                   ptx.mma.sync(shape=shape, dtype_d=td, dtype_a=ta, dtype_b=ta, dtype_c=tc,
                                d=d, a=fa, b=fb, c=d, a_layout=la, b_layout=lb)), "mma", \
                (".sync", ".aligned", f".m{m}n{n}k{k}", f".{la}", f".{lb}", td.ptx, ta.ptx, ta.ptx,
                 tc.ptx), (d, fa, fb, d)
    for t in TYPES:
        frag = [r[i % 8] for i in range(32)]
        for td, ta in ((t, T.bf16), (T.f32, t)):
            yield (lambda td=td, ta=ta, frag=frag:
                   ptx.wgmma.mma_async(shape=(64, 64, 16), dtype_d=td, dtype_a=ta, dtype_b=ta,
                                       d=frag, a=rd[1], b=rd[2], scale_d=p[1])), "wgmma", \
                (".mma_async", ".sync", ".aligned", ".m64n64k16", td.ptx, ta.ptx, ta.ptx), \
                (frag, rd[1], rd[2], p[1], 1, 1, 0, 0)
    for n in (64, 128, 256):
        for scale_a, trans_b in ((1, 0), (-1, 1)):
            frag = [r[i % 8] for i in range(n // 2)]
            yield (lambda n=n, frag=frag, scale_a=scale_a, trans_b=trans_b:
                   ptx.wgmma.mma_async(shape=(64, n, 16), dtype_d=T.f32, dtype_a=T.bf16,
                                       dtype_b=T.bf16, d=frag, a=rd[1], b=rd[2], scale_d=p[1],
                                       scale_a=scale_a, trans_b=trans_b)), "wgmma", \
                (".mma_async", ".sync", ".aligned", f".m64n{n}k16", ".f32", ".bf16", ".bf16"), \
                (frag, rd[1], rd[2], p[1], scale_a, 1, 0, trans_b)
    frag = [r[i] for i in range(4)]
    for layout in ("x1", "x2", "x4", "m8n8.x4", "m8n8.x2", "m16n16.x1", "m8n16.x2"):
        for trans in (False, True):
            mods = (".sync", ".aligned") + tuple("." + x for x in layout.split(".")) + \
                ((".trans",) if trans else ()) + (".shared", ".b16")
            yield (lambda layout=layout, trans=trans:
                   ptx.ldmatrix(dst=frag, src=a, layout=layout, trans=trans)), "ldmatrix", mods, \
                (frag, a)
    for count, trans, shape in itertools.product(("x1", "x2", "x4"), (False, True),
                                                 ("m8n8", "m16n8")):
        mods = (".sync", ".aligned", "." + shape, "." + count) + ((".trans",) if trans else ()) + \
            (".shared::cta", ".b16")
        yield (lambda count=count, trans=trans, shape=shape:
               ptx.stmatrix(smem=a, regs=frag, layout=count, trans=trans, shape=shape)), \
            "stmatrix", mods, (a, frag)
    # near misses: forms no wrapper writes
    yield None, "bra", (".uni",), ("L",)
    yield None, "ld", (".global", ".v4", ".u32"), ([r[1], r[2], r[3], r[4]], ptx.addr(rd[1]))
    yield None, "cp", (".async", ".wait_group"), (r[1],)
    yield None, "mbarrier", (".init", ".shared::cta", ".b64"), (a, r[1])       # count in a register
    yield None, "cp", (".async", ".cg", ".shared", ".global"), (a, b, 16, 8)   # src-size
    yield None, "wgmma", (".mma_async", ".sync", ".aligned", ".m64n64k16", ".f32", ".bf16", ".bf16"), \
        ([r[i % 8] for i in range(32)], rd[1], rd[2], 1, 1, 1, 0, 0)        # scale-d immediate
    yield None, "setmaxnreg", (".inc", ".sync", ".aligned", ".u32"), (r[1],)


@kernel(arch="sm_90a", version=(8, 5),
        raw_params=[("u64", "pa"), ("b8.align8.array16", "parr")])
def oracle_kernel():
    r = reg.array(T.b32, 8, name="%r")
    rd = reg.array(T.b64, 4, name="%rd")
    p = reg.array(T.pred, 4, name="%p")
    for case in cases(r, rd, p):
        call, op, mods, ops = case[:4]
        guard = case[4] if len(case) > 4 else None
        try:
            if call is None:
                raise ValueError("near miss")
            call()
        except Exception:
            P._GenericInst(op, mods)(*ops, pred=guard)
    ptx.label("L")
    ptx.ret()


def main():
    return oracle.decompile(sys.argv[1], "calls", oracle_kernel, "oracle_kernel", RECORD)


if __name__ == "__main__":
    sys.exit(main())
