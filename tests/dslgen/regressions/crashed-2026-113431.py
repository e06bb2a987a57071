# dslgen: seed 2026, program 113431 (tools/dslgen/run.py --show 2026:113431)
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
def k113431(X, Y, *, N=1048576):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    ptx.add(u32, tid, bid, 7)
    pos = reg.scalar(u32)
    ptx.or_(b32, pos, bid, bid)
    hit = reg.scalar(pred)
    boff = reg.scalar(u64)
    ptx.mul(u32, boff, pos, 4, mode="wide")
    py2 = py + boff
    pos2 = pos << 5
    off = reg.scalar(u32)
    ptx.selp(u32, off, 8192, pos2, hit)
    delta = reg.scalar(s32)
    ptx.inst.mul.lo.u32(delta, pos2, pos2)
    gaddr = reg.scalar(u64)
    ptx.mul(u32, gaddr, bid, 16, mode="wide")
    py3 = py2 + gaddr
    m = reg.scalar(f32)
    ptx.inst.ld.global_.f32(m, ptx.addr(px, 64))
    row = pos * pos - 31 + 8
    lane = ptx.special.tid.x() << 8
    ptx.inst.fma.rn.f32(m, m, m, m)
    ptx.inst.fma.rn.f32(m, m, m, m)
    row2 = reg.scalar(u32, init=128)
    for u in range(8):
        a = reg.scalar(f32)
        ofs = reg.scalar(u64, init=1024 * (u + 1))
        ptx.cvt(f32, u32, a, pos, rounding="rn")
    ptx.warp.reduce_min(off, width=4)
    py4 = py3 + 255
    ptx.mul(u32, gaddr, row2, 128, mode="wide")
    v = reg.scalar(f32)
    ptx.ld(f32, v, ptx.addr(py2, 8))
    acc = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc, ptx.addr(py4))
    ptx.inst.clz.b32(row2, bid)
    for s in range(4):
        s2 = reg.scalar(f32)
        ptx.inst.max.f32(s2, v, 1.0)
        addr = reg.scalar(u64)
        ptx.mul(u32, addr, lane, 4, mode="wide")
        boff += (1023 + 64 * s)
    with ptx.if_(row == 63):
        base = ptx.mad(row2, 31, lane)
        base2 = lane + 1023
    with ptx.else_():
        with ptx.if_(tid.max(pos2) == 64):
            desc = py4 + 0x3 + gaddr
        with ptx.else_():
            ptx.inst.abs.f32(m, acc)
            desc2 = reg.scalar(b64, init=8192)
    sA = smem.wgmma_tile(bf16, (64, 16), major="K")
    sB = smem.wgmma_tile(bf16, (16, 32), major="MN")
    acc2 = reg.wgmma_frag(m=64, n=32, dtype=f32)
    ptx.wgmma.fence()
    ptx.wgmma.mma_async(shape=(64, 32, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16, d=acc2, a=sA, b=sB, scale_d=False, trans_b=1)
    ptx.wgmma.commit_group()
    ptx.wgmma.wait_group(0)
    bid <<= 3
    for i in range(4):
        acc3 = reg.scalar(f32)
        ofs2 = gaddr | 1023
    tid ^= 63
    py += boff
    ptx.warp.reduce_max(lane)
    ptx.or_(b32, lane, delta, row)
    ptx.inst.ld.global_.f32(acc, ptx.addr(py, 1024))
    ptx.st(u32, ptx.addr(py3, 512), tid)
    ptx.inst.add.u32(off, bid, 64)
    gaddr2 = reg.scalar(u64)
    ptx.mul(u32, gaddr2, lane, 16, mode="wide")
    ptx.add(u32, row, tid, lane)
    with ptx.if_(lane * row > 32):
        ptx.selp(u32, bid, off, 7, hit)
        with ptx.if_(~hit):
            ptx.st(f32, ptx.addr(py3), acc)
            ptx.st(u32, ptx.addr(px, 32), lane)
        with ptx.else_():
            py5 = py3 + 256
            p = reg.scalar(pred)
            ptx.setp("lt", u32, p, off, pos2)
    lane2 = lane ^ delta
    ptx.selp(u32, lane2, lane2, pos, hit)
    px -= off
    for j in range(8):
        y = reg.scalar(f32)
        addr2 = (gaddr & boff + gaddr2) >> 8
        py6 = py3 + row
        lane2 <<= 6
        hit2 = reg.scalar(pred)
        ptx.setp("ge", u32, hit2, pos, (63 + 16 * j))
        col = row.max(4096)
        pos3 = reg.scalar(u32, init=j * 16)
        x = reg.scalar(f32, init=0.0)
    tile = (ptx.special.tid.x() & 512) + pos
    addr3 = reg.scalar(u64)
    ptx.mul(u32, addr3, off, 8, mode="wide")
    py7 = py2 + addr3
    ofs3 = reg.scalar(u64)
    ptx.mul(u32, ofs3, tile, 16, mode="wide")
    py8 = py2 + ofs3
    for it in ptx.range_(lane, 2, 1):
        with ptx.if_(tid << 2 != 7):
            pos ^= 128
            for u2 in range(4):
                scale = reg.scalar(f32)
                ptx.inst.st.global_.f32(ptx.addr(py, 512), acc)
    ptx.ret()


KERNEL = k113431
ARGS = {}
