# dslgen: seed 7, program 48 (tools/dslgen/run.py --show 7:48)
# class: crashed
# the worker died
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32), Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    arch="sm_90a",
)
def k48(X, W, Y, Z, *, N=1048576):
    pw, py, pz = ptx.global_ptrs(W, Y, Z)
    tid = reg.from_(ptx.special.tid.x(), u32)
    i = ptx.special.tid.x()
    col = reg.from_(ptx.special.tid.y(), u32)
    m = reg.scalar(f32, init=0.5)
    ptx.warp.reduce_sum(m, width=4)
    b = reg.scalar(f32)
    ptx.inst.ld.global_.f32(b, ptx.addr(py))
    off = reg.from_(ptx.special.ctaid.x(), u32)
    col2 = reg.from_(ptx.special.laneid(), u32)
    sidx = reg.from_(ptx.special.tid.y(), s32)
    base = (off >> 8) + sidx
    ptx.inst.abs.f32(b, m)
    for i2 in range(4):
        v = reg.scalar(f32)
        ptx.inst.ld.global_.f32(v, ptx.addr(pw, 4))
        ptx.inst.rcp.approx.f32(b, v)
        for k in ptx.range_(0, 32, 16):
            ptx.inst.st.global_.f32(ptx.addr(py, 128), v)
            ptx.warp.reduce_sum(i)
    ptx.inst.neg.f32(m, m)
    ptx.warp.reduce_sum(b, width=8)
    for s in range(2):
        x = reg.scalar(f32)
        if s == 1:
            for j in range(4):
                a = reg.scalar(f32)
                pw2 = pw + (i & col)
        for k2 in ptx.range_(0, 256, 64):
            ptx.inst.st.global_.u32(ptx.addr(pw), col)
            ptx.inst.ld.global_.f32(x, ptx.addr(pz, 8))
        pw3 = pw + 16
        word = reg.scalar(b32)
        ptx.inst.min.u32(word, base, tid)
        ptx.inst.fma.rn.f32(m, m, x, b)
        ptx.inst.sub.f32(m, m, 1.0)
    acc = reg.scalar(f32)
    ptx.inst.lg2.approx.f32(acc, m)
    for kk in range(3):
        s2 = reg.scalar(f32)
        ptx.inst.st.global_.u32(ptx.addr(pz, 1024), col)
        lane = ptx.special.tid.x() ^ 7
        key = reg.scalar(b32)
        ptx.inst.and_.b32(key, lane, off)
        idx = (base | 128) + 0x1f
        desc = reg.scalar(b64, init=1)
        a2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(a2, ptx.addr(pz))
        step = reg.scalar(s32)
        ptx.inst.rem.u32(step, lane, step)
        s3 = reg.scalar(f32)
        ptx.inst.max.f32(s3, m, a2)
    a3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a3, ptx.addr(pz))
    d = reg.from_(ptx.special.nctaid.x(), s32)
    with ptx.if_(8 + base != 127):
        pos = reg.scalar(u32)
        ptx.inst.max.s32(pos, col2, off)
        off2 = reg.from_(i, u32)
        ptx.inst.cvt.rn.f32.u32(b, i)
        ptx.inst.st.global_.f32(ptx.addr(py), b)
        s4 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(s4, ptx.addr(pw, 32))
    pos2 = reg.from_(ptx.special.ntid.x(), u32)
    j2 = reg.scalar(s32, init=15)
    ptx.inst.rcp.approx.f32(acc, b)
    ptx.inst.st.global_.u32(ptx.addr(pz), tid)
    off3 = reg.scalar(u32, init=3)
    base2 = reg.from_(ptx.special.ctaid.x(), u32)
    pz2 = pz + pos2
    acc2 = reg.scalar(f32)
    ptx.inst.fma.rn.f32(acc2, a3, a3, a3)
    ptx.warp.reduce_max(b)
    with ptx.if_(sidx < 7):
        ptx.inst.rcp.approx.f32(b, b)
        k3 = base2 | pos2
    ptx.ret()


KERNEL = k48
ARGS = {}
