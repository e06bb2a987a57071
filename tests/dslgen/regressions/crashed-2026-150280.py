# dslgen: seed 2026, program 150280 (tools/dslgen/run.py --show 2026:150280)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32), Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    raw_params=[("u32", "n")],
    arch="sm_90a",
)
def k150280(X, W, Y, Z, *, N=4096):
    px, pw, py, pz = ptx.global_ptrs(X, W, Y, Z)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    n = ptx.param(u32, "n")
    ptx.bar.sync(0)
    base = (tid ^ bid) * 63 - 63
    k = reg.scalar(u32)
    ptx.shr(u32, k, tid, 2)
    tile = k ^ 2
    i = tid + 0xff
    desc = reg.scalar(b64, init=0x200)
    m = reg.scalar(f32, init=1.0)
    m2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(m2, ptx.addr(pw))
    lane = n << tid
    a = reg.scalar(f32)
    ptx.inst.fma.rn.f32(a, m2, m2, m)
    ptx.add(u32, k, k, 0x100)
    for i2 in range(4):
        a2 = reg.scalar(f32)
        pos = tid if i2 == 0 else tid + i2 * 128
        pw -= 8192 * (i2 + 1)
        p = reg.scalar(pred)
        ptx.setp("eq", u32, p, tile, (512 + 128 * i2))
        h = reg.scalar(b32)
        ptx.inst.sub.s32(h, n, (127 + 256 * i2))
        px += h
        v = reg.scalar(f32)
        ptx.inst.cvt.rn.f32.u32(v, i)
    i3 = reg.scalar(u32, init=256)
    acc = reg.scalar(f32, init=1.0)
    m3 = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(m3, i)
    off = tid >> 16 >> 16
    ptx.st(u32, ptx.addr(py, 32), bid)
    idx = reg.scalar(u32)
    ptx.inst.clz.b32(idx, n)
    mask = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(mask, i3, 2, 31, -1)
    ptx.inst.min.f32(m2, a, m2)
    ptx.inst.st.global_.f32(ptx.addr(pw), m2)
    acc2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc2, ptx.addr(pz, 512))
    for i4 in range(4):
        m4 = reg.scalar(f32)
        if i4 > 0:
            off2 = idx - i3
            desc += off2
            off3 = tid * (i4 * 8192)
            ptx.inst.st.global_.u32(ptx.addr(pz), i)
        else:
            mask += tid
            ptx.st(f32, ptx.addr(pw, 256 + i4 * 16), a)
            mask2 = mask ^ bid
            pz += 255
        ptx.inst.fma.rn.f32(m4, a, acc, m3)
        ptx.add(u32, bid, n, 1023)
        x = reg.scalar(f32)
        ptx.inst.sqrt.approx.f32(x, m2)
        w = reg.scalar(b64, init=4)
        ptx.inst.sub.f32(m4, m2, 1.0)
        row = reg.scalar(u32)
        ptx.inst.not_.b32(row, i3)
        i += lane
        ptx.inst.ld.global_.f32(acc2, ptx.addr(px, i4 * 512))
        ptx.inst.st.global_.f32(ptx.addr(pw), m2)
    ptx.st(f32, ptx.addr(px, 4), m2)
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, bid, 8, mode="wide")
    ptx.inst.st.global_.f32(ptx.addr(py, 256), m3)
    ptx.inst.or_.b32(mask, base, i3)
    ptx.inst.fma.rn.f32(acc2, m, m3, m)
    row2 = reg.scalar(u32)
    ptx.inst.max.s32(row2, n, 64)
    k &= 64
    acc3 = reg.scalar(f32)
    ptx.inst.add.f32(acc3, acc2, a)
    mbar = smem.mbarrier(2)
    with ptx.if_(tid == 0):
        for i5 in range(2):
            ptx.mbarrier.init(mbar[i5], 1)
    ptx.fence.proxy_async()
    ptx.bar.sync(0)
    parity = reg.scalar(u32, init=0)
    state = ptx.mbarrier.arrive(mbar[1])
    v2 = reg.scalar(f32)
    ptx.inst.neg.f32(v2, acc3)
    state2 = ptx.mbarrier.arrive(mbar[0])
    boff = reg.scalar(u64)
    ptx.mul(u32, boff, tid, 8, mode="wide")
    px += mask
    base2 = k.max(lane)
    ptx.mbarrier.wait(mbar[0], parity)
    off4 = (i << tid).max(256) * 255
    ptx.mul(u32, boff, off, 8, mode="wide")
    parity ^= 1
    idx2 = ptx.mad(mask, 7, tid)
    ptx.st(u32, ptx.addr(py, 4096), base)
    ptx.st(f32, ptx.addr(py), acc2)
    ptx.st(f32, ptx.addr(py), v2)
    i6 = tid * i
    v3 = reg.scalar(f32)
    ptx.ld(f32, v3, ptx.addr(py, 128))
    cnt = 32 & ptx.special.tid.x() | 31
    flags = idx2 >> 3
    for i7 in range(4):
        a3 = reg.scalar(f32)
        ptx.inst.st.global_.f32(ptx.addr(pz, 8), a)
        ptx.st(f32, ptx.addr(px, 8), v3)
    a4 = reg.scalar(f32)
    ptx.inst.ex2.approx.f32(a4, acc2)
    ptx.inst.lg2.approx.f32(acc2, a4)
    ptx.st(f32, ptx.addr(pz, 64), m)
    off5 = cnt | parity
    addr = reg.scalar(u64, init=7)
    a5 = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(a5, k)
    ptx.inst.popc.b32(n, off)
    for u in range(4):
        v4 = reg.scalar(f32)
        if u % 2 == 0:
            v5 = reg.scalar(f32)
            ptx.inst.cvt.rn.f32.u32(v5, i3)
        tid &= u * 128
        ptx.inst.ex2.approx.f32(m2, v4)
        col = lane + bid
    for i8 in range(2):
        v6 = reg.scalar(f32)
        ptx.st(f32, ptx.addr(px, 16 + i8 * 4), acc3)
        idx3 = off5 ^ 8192
        ptx.inst.sub.f32(a5, acc2, m)
        ptx.st(f32, ptx.addr(px, i8 * 64), a5)
        ptx.cvt(f32, u32, m3, mask, rounding="rn")
        idx4 = ptx.mad(k, 15, off5)
        x2 = reg.scalar(f32)
        ptx.inst.cvt.rn.f32.u32(x2, bid)
    tile2 = reg.scalar(u32)
    ptx.mov(u32, tile2, base2)
    col2 = reg.scalar(u32)
    ptx.inst.div.u32(col2, base2, i6)
    ptx.add(u32, tile, tile2, 63)
    off4 *= 0x3f
    pz -= lane
    for j in range(2):
        s = reg.scalar(f32)
        if j < 1:
            off6 = off.max(mask) * idx2
            cnt2 = ptx.special.tid.x() & mask
        ptx.st(f32, ptx.addr(pz), a)
        row3 = tile + (n & 31) >> 7
        t = reg.scalar(f32)
        ptx.inst.ld.global_.f32(t, ptx.addr(pz))
    ptx.inst.ld.global_.u32(cnt, ptx.addr(pw, 16))
    tile3 = n + 255
    row4 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(row4, ptx.addr(pw))
    n <<= 2
    ptx.inst.sub.f32(acc, a, m)
    b = reg.scalar(f32)
    ptx.ld(f32, b, ptx.addr(py))
    cnt3 = off4.max(row2) + 0xffff
    cnt4 = reg.scalar(u32, init=8)
    ptx.inst.div.u32(idx, k, 16)
    def tile_step(src):
        v7 = reg.scalar(f32)
        ptx.ld(f32, v7, ptx.addr(src))
        ptx.inst.neg.f32(a5, v3)
        ptx.ld(f32, acc, ptx.addr(px))
        packed = reg.scalar(b64, init=32768)
        ptx.st(f32, ptx.addr(py, 128), acc)
    tile_step(pz)
    tile_step(px)
    ptx.ret()


KERNEL = k150280
ARGS = {}
