# dslgen: seed 2026, program 197996 (tools/dslgen/run.py --show 2026:197996)
# class: crashed
# generated code raised SyntaxError: invalid syntax (<generated>, line 10)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    arch="sm_90a",
)
def k197996(X, W, Y, *, N=65536):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    inb = reg.scalar(pred)
    x = reg.scalar(f32)
    ptx.inst.ld.global_.f32(x, ptx.addr(py))
    pw += 255
    row = bid & tid
    def combine(val, p, shift=2):
        a = reg.scalar(f32)
        ptx.ld(f32, a, ptx.addr(p, shift))
        bits = reg.scalar(b32, init=15)
        ptx.selp(u32, bid, tid, bits, inb)
        ptx.inst.ld.global_.f32(val, ptx.addr(py, shift * 128))
        ptx.inst.ld.global_.u32(tid, ptx.addr(px, 1024), pred=~inb)
        p2 = reg.scalar(pred)
        ptx.setp("lt", u32, p2, bits, 4)
        row2 = reg.scalar(u32, init=(63 + 128 * shift))
        base = 4096 & row2 ^ tid | 7
        return row2
    off = combine(x, px, shift=4)
    base2 = combine(x, py)
    tile = combine(x, pw, shift=256)
    tile ^= 8192
    def fetch(src):
        nonlocal off, pw
        a2 = reg.scalar(f32)
        ptx.ld(f32, a2, ptx.addr(src))
        b = reg.scalar(f32, init=0.0)
        pw += 1023
        idx = tid << 2
        ptx.or_(b32, off, tile, 127)
        ptx.st(f32, ptx.addr(pw, 512), a2)
        base3 = reg.from_(ptx.special.nctaid.x(), u32)
        off *= row
    fetch(pw)
    fetch(px)
    ptx.inst.ld.global_.f32(x, ptx.addr(pw, 1024))
    bid >>= 16
    for s in range(4):
        scale = reg.scalar(f32)
        pos = reg.scalar(u32)
        ptx.mad(u32, pos, tid, bid, row)
    bar = smem.mbarrier(2)
    with ptx.if_(tid == 0):
        ptx.mbarrier.init(bar[0], 1)
        ptx.mbarrier.init(bar[1], 1)
    ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    phase = reg.scalar(u32, init=0)
    ptx.mbarrier.wait(bar[1], phase)
    phase <<= 5
    ptx.warp.reduce_sum(base2, width=8)
    ptx.inst.ld.global_.u32(row, ptx.addr(py, 256))
    ptx.mbarrier.wait(bar[1], 1)
    ptx.st(f32, ptx.addr(px), x, pred=inb)
    ptx.warp.reduce_min(off)
    phase ^= 1
    py2 = py + 7
    row <<= 8
    def emit_row(lane_id):
        cnt = lane_id * 128
        m = reg.scalar(f32)
        ptx.inst.ld.global_.f32(m, ptx.addr(py))
        t = reg.scalar(f32, init=-1.0)
        ptx.setp("lt", u32, inb, off, base2)
    emit_row(off)
    emit_row(row)
    t2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(t2, ptx.addr(py))
    ptx.inst.st.global_.u32(ptx.addr(py), phase, pred=inb)
    base2 ^= base2
    i = reg.scalar(u32)
    ptx.selp(u32, i, row, 1, inb)
    lane = reg.scalar(u32, init=256)
    ptx.mad(u32, tile, lane, 255, phase)
    ofs = reg.scalar(u64)
    ptx.inst.mul.wide.u32(ofs, base2, 4)
    py3 = py2 + ofs
    py2 += row
    py2 -= off
    s2 = reg.scalar(f32)
    ptx.ld(f32, s2, ptx.addr(px))
    ptx.inst.st.global_.u32(ptx.addr(px, 128), bid, pred=inb)
    row3 = bid * off
    sidx = reg.scalar(s32, init=1024)
    gaddr = reg.scalar(u64)
    ptx.mul(u32, gaddr, sidx, 16, mode="wide")
    row4 = tile << 6
    gaddr >>= 1
    ptx.inst.st.global_.u32(ptx.addr(py2), lane)
    off += 2
    tile >>= 3
    py3 += 32
    w = reg.scalar(b64, init=64)
    i2 = reg.scalar(u32)
    ptx.add(u32, i2, lane, row3)
    a3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a3, ptx.addr(py3))
    lane2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(lane2, ptx.addr(py2))
    ofs ^= 4096
    px2 = px + ptx.special.tid.x() * 64
    phase ^= 32
    ptx.st(f32, ptx.addr(py2, 32), a3, pred=~inb)
    v = reg.scalar(f32)
    ptx.inst.ld.global_.f32(v, ptx.addr(pw, 16), pred=~inb)
    for kk in range(8):
        t3 = reg.scalar(f32)
        ptx.warp.reduce_sum(base2, width=8)
        i2 -= 1024 * (kk + 1)
    phase |= 1024
    for kk2 in range(3):
        a4 = reg.scalar(f32)
        ptx.inst.st.global_.f32(ptx.addr(py2, 4 + kk2 * 64), a4)
        i -= tile
        boff = reg.scalar(u64)
        ptx.inst.mul.wide.u32(boff, lane, 8)
        pw2 = pw + boff
    addr = reg.scalar(u64)
    ptx.mul(u32, addr, tid, 128, mode="wide")
    acc = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc, ptx.addr(py2))
    ptx.selp(u32, phase, 127, off, inb)
    lane2 *= i2
    px2 -= bid
    ptx.inst.st.global_.f32(ptx.addr(px2), acc)
    i3 = reg.scalar(u32, init=0x3f)
    tid *= 127
    py += tid
    i ^= i3
    px -= w
    ptx.warp.reduce_sum(i2)
    ptx.warp.reduce_max(lane, width=4)
    ptx.add(u32, lane, row3, i2, pred=inb)
    lane3 = i << 16 ^ 3
    ptx.ret()


KERNEL = k197996
ARGS = {}
