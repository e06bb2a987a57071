# dslgen: seed 2026, program 213931 (tools/dslgen/run.py --show 2026:213931)
# class: unfaithful
# module: first difference at token 1348 (inconsistent renaming: '%f10' was mapped to '%f10'): input line 311: '%f10' vs printed line 311: '%f17'
#       input : ... %r22 ] , %f10 ; mul.lo.u32 ...
#       output: ... %r22 ] , %f17 ; mul.lo.u32 ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    arch="sm_90a",
)
def k213931(X, Y, *, N=1048576):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    stage = smem.alloc(f32, (8, 64), name="stage")
    m = reg.scalar(f32)
    ptx.inst.ld.global_.f32(m, ptx.addr(py, 1024))
    acc = reg.scalar(f32)
    ptx.inst.ex2.approx.f32(acc, m)
    for w in range(4):
        x = reg.scalar(f32)
        i = reg.scalar(u32, init=127)
        with ptx.if_(bid <= 32768):
            ptx.inst.ld.global_.f32(acc, ptx.addr(px))
            scale = reg.scalar(f32)
            ptx.inst.neg.f32(scale, m)
            py -= 2
            ptx.inst.min.f32(m, m, x)
        delta = reg.from_(ptx.special.ctaid.x(), s32)
    res = []
    for j in range(4):
        y = reg.scalar(f32)
        parts = []
        for u in range(2):
            acc2 = reg.scalar(f32)
            res2 = []
            for s in range(2):
                b = reg.scalar(f32)
                stage[tid, 22] = y
                res2.append(b)
            delta2 = reg.scalar(s32)
            ptx.inst.min.u32(delta2, tid, tid)
            xs = [reg.scalar(f32) for _ in range(4)]
            parts.append(acc2)
        tile = tid + tid + 128
        ptx.inst.abs.f32(y, acc)
        j2 = reg.scalar(s32)
        ptx.inst.mul.lo.u32(j2, tid, 255)
        for s2 in range(3):
            a = reg.scalar(f32)
            ptx.inst.cvt.rn.f32.u32(m, tile)
            ptx.inst.ld.global_.u32(tile, ptx.addr(px, 8))
        res.append(y)
    ptx.inst.mul.rn.f32(m, m, m)
    def accumulate(p):
        b2 = reg.scalar(f32)
        ptx.ld(f32, b2, ptx.addr(p))
        ofs = reg.scalar(u64)
        ptx.inst.mul.wide.u32(ofs, tid, 8)
        px2 = px + ofs
        d = reg.from_(ptx.special.tid.x(), s32)
        step = d & 256
        ptx.inst.and_.b64(ofs, ofs, 0x3ff)
        off = reg.from_(ptx.special.ctaid.x(), u32)
    accumulate(py)
    accumulate(px)
    ptx.cp.async_.ca(ptx.addr(stage, 0), ptx.addr(px, 0), 16)
    ptx.cp.async_.ca(ptx.addr(stage, 16), ptx.addr(px, 16), 16)
    ptx.cp.async_.commit_group()
    ptx.cp.async_.wait_group(0)
    ptx.bar.sync(0)
    base = (bid ^ 8192) & bid
    base &= bid
    tid <<= 8
    bid >>= 5
    ptx.inst.ld.global_.f32(acc, ptx.addr(px))
    ptx.bar.sync(0)
    ptx.inst.sub.f32(res[0], res[0], m)
    col = reg.scalar(u32, init=32768)
    a2 = reg.scalar(f32)
    ptx.inst.add.rn.f32(a2, acc, acc)
    with ptx.if_(base | 4096 != 1):
        px3 = px + (base & col)
        ptx.inst.mul.f32(res[1], res[1], m)
        base *= col
        a3 = reg.scalar(f32)
        ptx.inst.ex2.approx.f32(a3, acc)
        lane = base & 1024
        stage[tid, 38] = a3
    with ptx.if_(col > 2):
        py2 = py + 65535
        idx = ptx.special.tid.x() & 32 | 65535
    key = reg.scalar(b32, init=4096)
    ptx.inst.cvt.rn.f32.u32(m, bid)
    ptx.inst.st.global_.f32(ptx.addr(px), a2)
    ptx.inst.st.global_.f32(ptx.addr(px), acc)
    ptx.inst.st.global_.u32(ptx.addr(py), base)
    ptx.inst.st.global_.f32(ptx.addr(px), a2)
    with ptx.if_(bid < 512):
        tid &= 1024
        flags = (key ^ 1) >> 1
        ptx.inst.ld.global_.u32(base, ptx.addr(py))
        m2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(m2, ptx.addr(px, 64))
        stage[base, tid] = a2
        n = reg.scalar(u32)
        ptx.inst.ld.global_.u32(n, ptx.addr(py, 512))
        tid <<= 7
    frag = [reg.scalar(f32) for _ in range(4)]
    lane2 = (ptx.special.tid.x() + col).max(0xf)
    ptx.inst.st.global_.f32(ptx.addr(py, 4096), acc)
    col2 = tid.max(2) | 1023
    vals = [reg.scalar(f32) for _ in range(4)]
    key -= 15
    ptx.inst.st.global_.f32(ptx.addr(px, 512), a2)
    j3 = reg.scalar(s32)
    ptx.inst.sub.s32(j3, base, j3)
    ptx.ret()


KERNEL = k213931
ARGS = {}
