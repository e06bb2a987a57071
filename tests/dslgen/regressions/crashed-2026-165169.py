# dslgen: seed 2026, program 165169 (tools/dslgen/run.py --show 2026:165169)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    arch="sm_90a",
)
def k165169(X, Y, *, N=4096):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    lane = tid + bid - 512
    ptx.add(u32, lane, lane, tid)
    acc = reg.scalar(f32, init=0.0)
    with ptx.if_(bid >= 7):
        cnt = reg.from_(ptx.special.nctaid.x(), u32)
        cnt2 = reg.scalar(u32)
        ptx.inst.ld.global_.u32(cnt2, ptx.addr(py, 32))
        with ptx.if_(lane <= 32768):
            ptx.inst.ld.global_.f32(acc, ptx.addr(py))
            ptx.st(u32, ptx.addr(py), tid)
            cnt3 = (lane ^ tid ^ 255) * 8192
    gaddr = reg.scalar(u64, init=0x80)
    with ptx.if_(bid - 4096 < 1024):
        ptx.inst.ld.global_.f32(acc, ptx.addr(py))
        desc = reg.scalar(b64, init=127)
        pos = ptx.special.tid.x() + tid + 65535
        ptx.inst.ld.global_.f32(acc, ptx.addr(py))
        d = reg.scalar(s32, init=1)
        col = reg.scalar(u32)
        ptx.ld(u32, col, ptx.addr(py, 128))
        a = reg.scalar(f32)
        ptx.inst.fma.rn.f32(a, acc, acc, acc)
    i = (bid - bid).max(1023)
    ptx.inst.sub.f32(acc, acc, acc)
    off = tid + ptx.special.tid.x() & 31
    with ptx.if_(bid - tid == 32):
        row = reg.from_(ptx.special.laneid(), u32)
        for u in range(4):
            s = reg.scalar(f32)
            ptx.inst.fma.rn.f32(acc, s, s, acc)
            py2 = py + u * 1024
        ptx.ld(f32, acc, ptx.addr(py, 128))
        idx = reg.scalar(u32)
        ptx.mad(u32, idx, row, 32, off)
    ptx.mul(u32, gaddr, i, 16, mode="wide")
    py3 = py + lane.max(bid)
    p = reg.scalar(pred)
    py4 = py + (i | 31)
    for kk in range(4):
        a2 = reg.scalar(f32)
        boff = reg.scalar(u64, init=8192 * (kk + 1))
        with ptx.if_(~p):
            ptx.inst.ld.global_.f32(acc, ptx.addr(py))
            x = reg.scalar(f32)
            ptx.inst.add.f32(x, a2, 1.0)
    with ptx.if_(p):
        i2 = reg.scalar(u32)
        ptx.xor_(b32, i2, lane, tid)
        for w in range(2):
            x2 = reg.scalar(f32)
            with ptx.if_(p):
                a3 = reg.scalar(f32)
                ptx.inst.fma.rn.f32(a3, x2, acc, x2)
                off2 = tid if w == 0 else tid + w * 512
                off3 = ptx.mad(off2, 1023, 0x3f)
    s2 = reg.scalar(f32)
    ptx.ld(f32, s2, ptx.addr(py4))
    ptx.add(u32, bid, bid, tid)
    n = off + bid & 255
    cnt4 = (i & lane) * 1 & 31
    ptx.st(f32, ptx.addr(py, 8), s2)
    ptx.ld(f32, acc, ptx.addr(py3))
    idx2 = tid + cnt4
    i3 = (idx2 | tid) - 63
    with ptx.if_(off >= 4):
        base = (bid & 7 ^ 1).max(0xffff)
        n2 = tid << off
        b = reg.scalar(f32)
        ptx.inst.rcp.approx.f32(b, acc)
    col2 = tid >> idx2
    py5 = py + 0x40
    ptx.st(f32, ptx.addr(py3, 8), s2)
    ptx.inst.st.global_.f32(ptx.addr(py5), s2)
    ptx.add(u32, tid, i, 1024)
    v = reg.scalar(f32)
    ptx.ld(f32, v, ptx.addr(py))
    s3 = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(s3, col2)
    i4 = reg.from_(ptx.special.ctaid.x(), u32)
    base2 = reg.scalar(u32)
    ptx.shl(b32, base2, tid, 2)
    pos2 = col2 & 2
    py6 = py5 + 4096
    with ptx.if_(p):
        boff2 = reg.scalar(u64)
        ptx.inst.mul.wide.u32(boff2, col2, 16)
        py7 = py5 + boff2
        ptx.st(f32, ptx.addr(py4), acc)
        k = col2 + idx2 >> 5
        lane2 = k + col2
    k2 = reg.from_(off, u32)
    step = reg.from_(i4, s32)
    with ptx.if_(k2.max(1) < 32):
        scale = reg.scalar(f32)
        ptx.inst.ld.global_.f32(scale, ptx.addr(py6))
    boff3 = reg.scalar(u64)
    ptx.mul(u32, boff3, k2, 8, mode="wide")
    col3 = ptx.special.tid.x()
    ptx.inst.cvt.rn.f32.u32(s2, i)
    ptx.mov(u32, i4, off)
    ptx.add(u32, cnt4, i3, lane)
    ptx.inst.lg2.approx.f32(s3, acc)
    ptx.inst.fma.rn.f32(acc, s3, s3, s3)
    ptx.inst.cvt.rn.f32.u32(s3, i4)
    t = reg.scalar(f32, init=-1.0)
    with ptx.if_(i3 + bid <= 4096):
        ptx.mul(u32, gaddr, idx2, 16, mode="wide")
        ptx.inst.st.global_.f32(ptx.addr(py6), t)
        n3 = reg.from_(ptx.special.nctaid.x(), u32)
        acc2 = reg.scalar(f32)
        ptx.inst.fma.rn.f32(acc2, v, s3, v)
        lane3 = k2 | 32
        n4 = ptx.special.tid.x()
    boff4 = reg.scalar(u64, init=256)
    b2 = reg.scalar(f32)
    ptx.ld(f32, b2, ptx.addr(py5))
    ptx.inst.st.global_.f32(ptx.addr(py3), v)
    acc3 = reg.scalar(f32)
    ptx.ld(f32, acc3, ptx.addr(py))
    ptx.inst.ld.global_.u32(bid, ptx.addr(py4))
    py8 = py6 + (col2 | 1024)
    ptx.inst.ex2.approx.f32(b2, t)
    py9 = py6 + col2
    py10 = py8 + base2
    step2 = reg.scalar(s32, init=32768)
    gaddr2 = reg.scalar(u64)
    ptx.mul(u32, gaddr2, bid, 8, mode="wide")
    k3 = tid - lane
    py11 = py8 + 0x200
    for j in range(4):
        b3 = reg.scalar(f32)
        inb = reg.scalar(pred)
        ptx.setp("ge", u32, inb, col2, (32 + 16 * j))
        ptx.inst.lg2.approx.f32(s3, b3)
        ptx.st(u32, ptx.addr(py3), cnt4)
    step3 = reg.scalar(s32, init=1)
    ptx.inst.ld.global_.u32(off, ptx.addr(py5))
    j2 = (step2 | step) << 7
    ptx.ret()


KERNEL = k165169
ARGS = {}
