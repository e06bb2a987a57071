# dslgen: seed 2026, program 85192 (tools/dslgen/run.py --show 2026:85192)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    arch="sm_90a",
)
def k85192(X, W, B, Y, *, N=1048576):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    py2 = py + 3
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, tid, 16, mode="wide")
    b = reg.scalar(f32, init=1.0)
    ptx.st(u32, ptx.addr(py, 128), tid)
    ptx.inst.st.global_.f32(ptx.addr(pw, 512), b)
    done = reg.scalar(pred)
    ptx.add(u32, tid, tid, tid)
    for kk in range(8):
        x = reg.scalar(f32)
        ptx.inst.st.global_.f32(ptx.addr(py2, kk * 128), x)
        col = tid if kk == 0 else tid + kk * 16
    py3 = py2 + 1024
    ptx.inst.st.global_.u32(ptx.addr(py2), tid)
    acc = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(acc, tid)
    i = ptx.mad(tid, 4096, tid)
    ptx.inst.add.rn.f32(acc, b, b)
    addr = reg.scalar(u64)
    ptx.mul(u32, addr, tid, 128, mode="wide")
    ptx.inst.st.global_.f32(ptx.addr(pb, 512), b)
    cnt = (i & tid) >> 5
    ptx.inst.fma.rn.f32(acc, b, b, b)
    tile = tid & 65535
    with ptx.if_(done):
        base = (cnt ^ tid) - cnt
        d = reg.from_(ptx.special.nctaid.x(), s32)
        ptx.inst.max.f32(b, b, acc)
        scale = reg.scalar(f32)
        ptx.inst.fma.rn.f32(scale, acc, acc, b)
        m = reg.scalar(f32)
        ptx.inst.add.rn.f32(m, acc, "0f3F800000")
        addr += cnt
    ptx.inst.fma.rn.f32(acc, acc, b, acc)
    pb2 = pb + i
    idx = reg.scalar(u32)
    ptx.add(u32, idx, i, 4096)
    w = reg.scalar(b64, init=8192)
    py2 += w
    ptx.inst.fma.rn.f32(acc, b, b, acc)
    tile <<= 4
    b2 = reg.scalar(f32)
    ptx.cvt(f32, u32, b2, i, rounding="rn")
    v = reg.scalar(f32)
    ptx.ld(f32, v, ptx.addr(pb2, 64))
    x2 = reg.scalar(f32)
    ptx.cvt(f32, u32, x2, tile, rounding="rn")
    scale2 = reg.scalar(f32)
    ptx.ld(f32, scale2, ptx.addr(px))
    scale3 = reg.scalar(f32)
    ptx.inst.fma.rn.f32(scale3, b, scale2, v)
    for j in range(4):
        y = reg.scalar(f32)
        cnt2 = i.max(cnt)
        inb = reg.scalar(pred)
        ptx.setp("eq", u32, inb, i, (32 + 4 * j))
    idx2 = ptx.special.tid.x() + tile
    ptx.warp.reduce_sum(tid)
    base2 = i + idx2 + (tid | 8) + idx
    ptx.inst.fma.rn.f32(scale3, b, v, x2)
    y2 = reg.scalar(f32)
    ptx.inst.add.rn.f32(y2, v, v)
    gaddr = reg.scalar(u64)
    ptx.inst.mul.wide.u32(gaddr, idx2, 16)
    pb3 = pb + gaddr
    s = reg.scalar(f32)
    ptx.inst.max.f32(s, x2, b)
    for it in ptx.range_(0, 8, 4):
        with ptx.if_(cnt * tid != 2):
            col2 = reg.from_(i, u32)
            gaddr += addr
            gaddr2 = reg.scalar(u64)
            ptx.mul(u32, gaddr2, i, 128, mode="wide")
    s2 = reg.scalar(f32)
    ptx.inst.mul.f32(s2, scale2, b)
    pb3 -= 15
    boff = reg.scalar(u64)
    ptx.mul(u32, boff, idx, 16, mode="wide")
    py4 = py + boff
    ofs2 = reg.scalar(u64)
    ptx.mul(u32, ofs2, base2, 16, mode="wide")
    pw2 = pw + ofs2
    boff += 3
    ptx.inst.mul.f32(y2, v, s)
    py4 += tile
    acc2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc2, ptx.addr(pw, 512))
    w -= 31
    row = tile ^ 1023
    x3 = reg.scalar(f32)
    ptx.ld(f32, x3, ptx.addr(pb3))
    base2 += row
    ptx.st(f32, ptx.addr(py, 8), scale3)
    i2 = reg.scalar(u32, init=4)
    pb -= tid
    px2 = px + idx2
    tid -= idx2
    m2 = reg.scalar(f32)
    ptx.inst.fma.rn.f32(m2, scale2, acc, acc)
    px3 = px2 + (tid & i)
    tile2 = reg.from_(ptx.special.nctaid.x(), u32)
    ptx.add(u32, tile2, i2, row)
    addr2 = reg.scalar(u64)
    ptx.mul(u32, addr2, row, 16, mode="wide")
    py5 = py3 + addr2
    ptx.inst.fma.rn.f32(x2, x2, s2, scale2)
    idx ^= row
    x4 = reg.scalar(f32, init=-1.0)
    tid <<= 5
    ptx.inst.st.global_.f32(ptx.addr(py), y2)
    ptx.st(f32, ptx.addr(px3, 32), s2)
    k = reg.scalar(u32)
    ptx.add(u32, k, cnt, tile)
    ptx.inst.st.global_.f32(ptx.addr(py4), scale2)
    ptx.inst.add.f32(s, s, x4)
    ptx.inst.fma.rn.f32(acc, s, x3, y2)
    base3 = reg.from_(k, u32)
    step = reg.scalar(s32, init=7)
    col3 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(col3, ptx.addr(py2, 4096))
    for i3 in range(8):
        v2 = reg.scalar(f32)
        ptx.warp.reduce_sum(scale2, width=16)
        for w2 in range(3):
            v3 = reg.scalar(f32)
            base4 = reg.from_(ptx.special.ntid.x(), u32)
            pb4 = pb + 63
            i4 = col3 ^ base3
            ofs ^= ofs
            ptx.ld(u32, idx2, ptx.addr(px3, 16 + i3 * 128))
    v4 = reg.scalar(f32, init=1.0)
    s3 = reg.scalar(f32)
    ptx.cvt(f32, u32, s3, i2, rounding="rn")
    boff -= 4096
    ptx.inst.add.rn.f32(scale2, scale3, x2)
    ptx.inst.ld.global_.f32(v4, ptx.addr(pb))
    idx3 = i2 - i2
    t = reg.scalar(f32)
    ptx.cvt(f32, u32, t, k, rounding="rn")
    ptx.ret()


KERNEL = k85192
ARGS = {}
