# dslgen: seed 2026, program 138541 (tools/dslgen/run.py --show 2026:138541)
# class: unfaithful
# module: first difference at token 2069 (inconsistent renaming: '%f4' was mapped to '%f4'): input line 485: '%f4' vs printed line 485: '%f9'
#       input : ... %r21 ] , %f4 ; shfl.sync.bfly.b32 ...
#       output: ... %r21 ] , %f9 ; shfl.sync.bfly.b32 ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    raw_params=[("u32", "n")],
    arch="sm_90a",
)
def k138541(X, Y, *, N=65536):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    n = ptx.param(u32, "n")
    sbuf = smem.alloc(f32, (8, 64), name="sbuf")
    for u in range(2):
        acc = reg.scalar(f32)
        key = reg.scalar(b32)
        ptx.inst.max.s32(key, tid, key)
        px2 = px + (key + 255)
        idx = reg.scalar(u32)
        ptx.inst.ld.global_.u32(idx, ptx.addr(px2, 16))
        ptx.inst.min.f32(acc, acc, 1.0)
        ptx.ld(f32, acc, ptx.addr(sbuf, 8), space="shared")
    ptx.or_(b32, tid, tid, tid)
    v = reg.scalar(f32, init=0.5)
    sbuf[tid, tid] = v
    b = reg.scalar(f32)
    ptx.inst.sub.f32(b, v, v)
    res = []
    for w in range(8):
        t = reg.scalar(f32)
        out = []
        for u2 in range(3):
            y = reg.scalar(f32)
            key2 = reg.scalar(b32)
            ptx.inst.shfl.sync.bfly.b32(key2, n, 8, 31, -1)
            sbuf[tid, 32] = t
            xs = [reg.scalar(f32) for _ in range(4)]
            out.append(y)
        res.append(t)
    ptx.inst.mul.rn.f32(b, b, "0f3F800000")
    ptx.inst.sub.f32(res[1], res[1], b)
    ptx.inst.shl.b32(tid, n, 16)
    sidx = reg.scalar(s32)
    ptx.inst.and_.b32(sidx, n, 65535)
    d = ((sidx ^ 65535) >> 8).max(0x3)
    base = reg.from_(ptx.special.ntid.x(), u32)
    b2 = reg.scalar(f32)
    ptx.inst.add.rn.f32(b2, b, 1.0)
    d2 = sidx << tid ^ base
    m = reg.scalar(f32)
    ptx.inst.fma.rn.f32(m, b, v, v)
    rb = reg.array(b32, 16)
    t2 = reg.scalar(f32, init=1.0)
    idx2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(idx2, ptx.addr(px))
    ptx.inst.sub.f32(res[5], res[5], m)
    ptx.ld(f32, b, ptx.addr(px))
    ptx.cvt(f32, u32, v, rb[2], rounding="rn")
    ptx.inst.st.global_.u32(ptx.addr(py, 4), n)
    x = reg.scalar(f32)
    ptx.inst.sqrt.approx.f32(x, b)
    m2 = reg.scalar(f32, init=-1.0)
    mbar = smem.mbarrier(2)
    with ptx.if_(tid == 0):
        for i in range(2):
            ptx.mbarrier.init(mbar[i], 1)
    ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    phase = reg.scalar(u32, init=0)
    ptx.mbarrier.wait(mbar[0], 1)
    step = d2 * 128
    t3 = reg.scalar(f32)
    ptx.inst.fma.rn.f32(t3, t2, x, m)
    ptx.inst.mul.f32(res[5], res[5], m2)
    with ptx.if_(tid == 0):
        ptx.mbarrier.arrive_expect_tx(mbar[0], 4096)
    row = reg.scalar(u32)
    ptx.inst.clz.b32(row, step)
    phase ^= 1
    boff = reg.scalar(u64)
    ptx.mul(u32, boff, row, 8, mode="wide")
    py2 = py + boff
    sbuf[n, tid] = b2
    lane = 16 + phase
    idx3 = reg.scalar(u32)
    ptx.inst.and_.b32(idx3, d, step)
    lane2 = (n ^ 255) - d2
    scale = reg.scalar(f32, init=-1.0)
    addr = reg.scalar(u64)
    ptx.mul(u32, addr, rb[10], 128, mode="wide")
    a = reg.scalar(f32)
    ptx.ld(f32, a, ptx.addr(py2, 128))
    for u3 in range(8):
        acc2 = reg.scalar(f32)
        k = ((n & lane >> 1) - rb[1] * 2).max(d)
        m3 = reg.scalar(f32)
        ptx.cvt(f32, u32, m3, sidx, rounding="rn")
        s = reg.scalar(f32)
        ptx.inst.ld.global_.f32(s, ptx.addr(px, 4096))
        ptx.st(f32, ptx.addr(py2, 32), m)
    ptx.inst.mul.rn.f32(a, t3, 1.0)
    boff2 = reg.scalar(u64)
    ptx.mul(u32, boff2, step, 128, mode="wide")
    sbuf[idx3, 15] = b
    a2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a2, ptx.addr(py, 256))
    m4 = reg.scalar(f32)
    ptx.inst.mul.f32(m4, b, v)
    delta = d2.max(rb[3])
    m5 = reg.scalar(f32)
    ptx.ld(f32, m5, ptx.addr(py2))
    h = reg.scalar(b32)
    ptx.inst.div.u32(h, row, rb[7])
    xs2 = [reg.scalar(f32) for _ in range(4)]
    n2 = ptx.special.tid.x() * rb[5] - 7
    ptx.inst.st.shared.f32(ptx.addr(sbuf), v)
    sbuf[lane2, 23] = m
    m6 = sbuf[lane2, 20]
    b3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(b3, ptx.addr(py2))
    ptx.inst.rem.u32(delta, base, lane2)
    boff3 = reg.scalar(u64)
    ptx.mul(u32, boff3, idx2, 16, mode="wide")
    px3 = px + boff3
    ptx.inst.and_.b32(d, n2, 1024)
    i2 = reg.scalar(u32)
    ptx.ld(u32, i2, ptx.addr(px3, 256))
    k2 = reg.scalar(u32, init=0x7)
    ptx.cp.async_.ca(ptx.addr(sbuf, 0), ptx.addr(px3, 0), 16)
    ptx.cp.async_.commit_group()
    ptx.cp.async_.wait_all()
    ptx.bar.sync(0)
    rb[14] = ptx.special.tid.x()
    col = reg.scalar(u32)
    ptx.mov(u32, col, h)
    scale2 = reg.scalar(f32)
    ptx.cvt(f32, u32, scale2, delta, rounding="rn")
    ptx.inst.st.shared.f32(ptx.addr(sbuf, 4096), b)
    ptx.xor_(b32, n, step, 32768)
    ptx.inst.fma.rn.f32(t3, scale2, a, x)
    ofs = reg.scalar(u64)
    ptx.inst.add.s64(ofs, boff3, ofs)
    rb2 = reg.array(b32, 8)
    step2 = d + ptx.special.tid.x() << 3 | col
    scale3 = reg.scalar(f32)
    ptx.inst.mul.f32(scale3, m4, m)
    ptx.inst.st.global_.f32(ptx.addr(py), a2)
    ptx.inst.mul.lo.u32(h, base, delta)
    ptx.inst.sub.f32(v, a, 1.0)
    i3 = col + n2
    v2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(v2, ptx.addr(px3, 32))
    b4 = reg.scalar(f32)
    ptx.inst.ld.shared.f32(b4, ptx.addr(sbuf, 4))
    idx4 = reg.scalar(u32)
    ptx.add(u32, idx4, step2, idx2)
    ptx.inst.ex2.approx.f32(m4, a)
    row2 = reg.scalar(u32, init=63)
    a3 = sbuf[row2, n2]
    px4 = px + 1
    ptx.inst.mul.rn.f32(v2, t3, v2)
    x2 = reg.scalar(f32)
    ptx.inst.fma.rn.f32(x2, a3, m5, scale3)
    row3 = ptx.special.tid.x().max(8)
    row4 = ptx.mad(h, 8, 127)
    ptx.inst.fma.rn.f32(scale3, a3, x, b3)
    a4 = reg.scalar(f32)
    ptx.inst.ld.shared.f32(a4, ptx.addr(sbuf))
    b5 = reg.scalar(f32)
    ptx.inst.sqrt.approx.f32(b5, x)
    buf = [reg.scalar(f32) for _ in range(4)]
    ptx.inst.add.u32(tid, step, rb2[5])
    rb2[1] = rb[0]
    key3 = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(key3, k2, 16, 31, -1)
    sidx2 = reg.scalar(s32, init=8)
    ptx.inst.mul.f32(buf[3], buf[3], t3)
    cnt = ptx.special.tid.x() & row3
    m7 = reg.scalar(f32)
    ptx.ld(f32, m7, ptx.addr(sbuf, 16), space="shared")
    s2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(s2, ptx.addr(py, 4096))
    ptx.ret()


KERNEL = k138541
ARGS = {}
