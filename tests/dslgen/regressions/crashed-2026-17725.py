# dslgen: seed 2026, program 17725 (tools/dslgen/run.py --show 2026:17725)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    arch="sm_90a",
)
def k17725(X, Y, *, N=65536):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    y = reg.scalar(f32)
    ptx.ld(f32, y, ptx.addr(py))
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, bid, 4, mode="wide")
    px2 = px + ofs
    inb = reg.scalar(pred)
    n = tid * tid * bid
    packed = px - tid - 1024
    x = reg.scalar(f32)
    ptx.inst.fma.rn.f32(x, y, y, y)
    ptx.inst.st.global_.f32(ptx.addr(px), x)
    desc = (packed & 32768) * 0x7
    lane = n + bid & 128
    ptx.cvt(f32, u32, x, n, rounding="rn")
    base = reg.scalar(u32)
    ptx.ld(u32, base, ptx.addr(px2))
    with ptx.if_(inb):
        for kk in range(8):
            s = reg.scalar(f32)
            py += kk * 1024
            cnt = bid.max(base) + (15 + 64 * kk) & 1
            px3 = px2 + tid
            px4 = px2 + (n << bid)
            done = reg.scalar(pred)
            ptx.setp("ge", u32, done, lane, 128 * (kk + 1))
            ptx.inst.neg.s32(n, cnt)
            ptx.selp(u32, bid, base, 65535, done)
            boff = reg.scalar(u64)
            ptx.mul(u32, boff, bid, 16, mode="wide")
            tile = reg.scalar(u32)
            ptx.add(u32, tile, base, base)
    ptx.inst.st.global_.u32(ptx.addr(px, 512), bid)
    ptx.inst.ld.global_.f32(y, ptx.addr(px))
    bar_mem = smem.mbarrier(4)
    full = ptx.mbarrier.array(bar_mem, 0, 2)
    empty = ptx.mbarrier.array(bar_mem, 16, 2)
    with ptx.if_(tid == 0):
        full.init_all(1)
        empty.init_all(128)
    ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    ring = ptx.pipeline(2)
    it = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    with ptx.loop("mainloop_1", pred=more):
        stage, phase = ring.advance()
        full.at(stage).wait(phase)
        with ptx.if_(lane > 4096):
            px5 = px2 + 0xffff
            fr = reg.array(f32, 8)
        col = stage - bid
        empty.at(stage).arrive()
        it += 1
        ptx.setp("lt", u32, more, it, 8)
    px += packed
    i = reg.scalar(u32, init=65535)
    buf = [reg.scalar(f32) for _ in range(4)]
    gaddr = reg.scalar(u64)
    ptx.inst.mul.wide.u32(gaddr, tid, 4)
    px6 = px2 + gaddr
    n2 = reg.scalar(u32)
    ptx.add(u32, n2, bid, n)
    gaddr2 = reg.scalar(u64)
    ptx.inst.mul.wide.u32(gaddr2, n2, 4)
    px7 = px6 + gaddr2
    k = (tid << n2) + n2
    ptx.st(u32, ptx.addr(px7, 16), base)
    ptx.inst.st.global_.u32(ptx.addr(py), bid)
    base2 = reg.scalar(u32)
    ptx.add(u32, base2, base, 1)
    v = reg.scalar(f32)
    ptx.inst.max.f32(v, x, y)
    with ptx.if_(~inb):
        ptx.sub(s32, bid, base2, 63)
        with ptx.if_(inb):
            gaddr += 0x1
            ptx.inst.ld.global_.f32(y, ptx.addr(py, 16))
            ptx.inst.add.f32(buf[2], buf[2], v)
        k2 = ptx.mad(base, 16, 0xffff)
        col2 = ptx.special.tid.x() + 0xff << 1
        scale = reg.scalar(f32)
        ptx.inst.fma.rn.f32(scale, x, x, x)
        ptx.inst.max.f32(y, v, x)
        packed <<= 3
        pos = reg.scalar(u32)
        ptx.selp(u32, pos, 4096, tid, inb)
    ptx.st(f32, ptx.addr(px), v)
    ptx.ret()


KERNEL = k17725
ARGS = {}
