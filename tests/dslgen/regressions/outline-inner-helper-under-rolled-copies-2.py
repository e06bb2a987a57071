# dslgen: seed 60, program 68230 (tools/dslgen/run.py --show 60:68230)
# class: crashed
# generated code raised SyntaxError: no binding for nonlocal 'r42' found (<generated>, line 26)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    raw_params=[("u32", "n")],
    arch="sm_90a",
)
def k68230(X, W, Y, *, N=4096):
    pw, = ptx.global_ptrs(W)
    tid = reg.from_(ptx.special.tid.x(), u32)
    n = ptx.param(u32, "n")
    gaddr = reg.scalar(u64)
    ptx.mul(u32, gaddr, n, 128, mode="wide")
    pw += gaddr
    with ptx.if_(n >= 1024):
        pw += tid
        vals = [reg.scalar(f32) for _ in range(4)]
        addr = reg.scalar(u64)
        ptx.mul(u32, addr, tid, 4, mode="wide")
    cnt = ptx.mad(tid, 1, tid)
    lane = n | 128 | 1024
    with ptx.if_(tid - 65535 > 127):
        d = reg.scalar(s32)
        ptx.inst.xor.b32(d, n, cnt)
        step = reg.from_(ptx.special.ntid.x(), s32)
        mask = reg.scalar(b32)
        ptx.inst.div.u32(mask, tid, 15)
        mask2 = mask << 8 & step
        a = reg.scalar(f32)
        ptx.ld(f32, a, ptx.addr(pw, 8))
        ptx.inst.st.global_.u32(ptx.addr(pw), n)
        mask2 >>= 3
        ptx.inst.mul.rn.f32(a, a, "0f3F800000")
    t = reg.scalar(f32, init=0.0)
    ptx.inst.st.global_.f32(ptx.addr(pw, 1024), t)
    i = reg.scalar(u32)
    ptx.shr(u32, i, tid, 3)
    d2 = reg.from_(ptx.special.nctaid.x(), s32)
    ofs = (gaddr & pw + i) >> 8 >> 5
    with ptx.if_(15 + tid < 31):
        lane2 = cnt.max(512)
        ptx.inst.fma.rn.f32(t, t, t, t)
        ptx.ld(u32, lane2, ptx.addr(pw, 1024))
        base = reg.scalar(u32)
        ptx.inst.ld.global_.u32(base, ptx.addr(pw, 8))
    lane3 = reg.scalar(u32)
    ptx.ld(u32, lane3, ptx.addr(pw, 64))
    for w in range(8):
        a2 = reg.scalar(f32)
        cnt += lane3
        ptx.inst.st.global_.f32(ptx.addr(pw), t)
        row = n >> 8
        for j in range(8):
            m = reg.scalar(f32)
            with ptx.if_(i << 4 >= 63):
                col = reg.scalar(u32, init=64)
                ptx.inst.mul.rn.f32(t, a2, a2)
                row += 15
                ptx.inst.max.f32(t, a2, m)
                bits = reg.scalar(b32)
                ptx.inst.max.s32(bits, tid, 3)
    addr2 = reg.scalar(u64)
    ptx.inst.add.s64(addr2, ofs, 0x3)
    with ptx.if_(i != 127):
        ptx.inst.add.f32(t, t, "0f3F800000")
        ptx.inst.abs.f32(t, t)
        vals2 = [reg.scalar(f32) for _ in range(8)]
    bars = smem.mbarrier(4)
    with ptx.if_(tid == 0):
        ptx.mbarrier.init(bars[0], 1)
        ptx.mbarrier.init(bars[1], 1)
        ptx.mbarrier.init(bars[2], 1)
        ptx.mbarrier.init(bars[3], 1)
    ptx.fence.proxy_async()
    ptx.bar.sync(0)
    phase = reg.scalar(u32, init=0)
    with ptx.if_(tid == 0):
        ptx.mbarrier.arrive_expect_tx(bars[1], 4096)
    d2 >>= 4
    h = reg.scalar(b32)
    ptx.inst.div.u32(h, n, 32)
    phase ^= 1
    ptx.inst.st.global_.f32(ptx.addr(pw), t)
    frag = [reg.scalar(f32) for _ in range(4)]
    ptx.inst.cvt.rn.f32.u32(t, n)
    for kt in ptx.range_(0, 8, 1):
        ofs2 = addr2 >> 1 << 3 << 5
        ptx.cvt(f32, u32, t, kt, rounding="rn")
    ptx.inst.st.global_.u32(ptx.addr(pw, 1024), lane3)
    ptx.inst.ld.global_.f32(t, ptx.addr(pw))
    ptx.inst.mul.lo.u32(h, lane, 0x20)
    i2 = reg.scalar(u32, init=15)
    pw2 = pw + 0x10
    with ptx.if_(d2 >= 1023):
        lane3 <<= 8
        ptx.st(f32, ptx.addr(pw2, 4096), t)
        for i3 in range(4):
            v = reg.scalar(f32)
            pw3 = pw + (phase + 1023)
            step2 = d2 - 8192
            lane4 = lane3 * 0x1f
        idx = n.max(256)
        ptx.inst.rcp.approx.f32(t, t)
    gaddr2 = reg.scalar(u64)
    ptx.mul(u32, gaddr2, i, 8, mode="wide")
    with ptx.if_(tid + lane == 63):
        ptx.add(u32, lane, d2, 31)
        i2 += 1024
        boff = gaddr2 + 7 - gaddr2 ^ gaddr
        ptx.inst.st.global_.u32(ptx.addr(pw), i2)
    ptx.ret()


KERNEL = k68230
ARGS = {}
