# dslgen: seed 2026, program 206213 (tools/dslgen/run.py --show 2026:206213)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    raw_params=[("u32", "n")],
    arch="sm_90a",
)
def k206213(X, W, B, Y, *, N=1048576):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    n = ptx.param(u32, "n")
    row = reg.scalar(u32)
    ptx.xor_(b32, row, bid, 31)
    acc = reg.scalar(f32, init=1.0)
    cnt = bid | 1024
    ptx.inst.fma.rn.f32(acc, acc, acc, acc)
    tile = row + row + 7
    idx = n >> 3 | 2
    row2 = reg.scalar(u32, init=4096)
    ptx.inst.sqrt.approx.f32(acc, acc)
    addr = reg.scalar(u64)
    ptx.mul(u32, addr, n, 4, mode="wide")
    hit = reg.scalar(pred)
    ptx.inst.sub.f32(acc, acc, acc)
    x = reg.scalar(f32, init=0.0)
    def tile_step(dst):
        v = reg.scalar(f32)
        ptx.ld(f32, v, ptx.addr(dst))
        ptx.st(f32, ptx.addr(pw), acc, pred=~hit)
        g = [reg.scalar(f32) for _ in range(8)]
        scale = reg.scalar(f32)
        ptx.cvt(f32, u32, scale, idx, rounding="rn")
        n2 = ptx.mad(cnt, 2, n)
        soff = reg.scalar(s64)
        ptx.inst.add.s64(soff, addr, soff)
        return n2
    cnt2 = tile_step(pb)
    off = tile_step(py)
    ptx.setp("eq", u32, hit, tile, off)
    word = reg.scalar(b32)
    ptx.inst.shr.u32(word, tile, 7)
    n3 = reg.scalar(u32)
    ptx.add(u32, n3, cnt, cnt)
    packed = px + (ptx.special.tid.x() - 8) + 0x7f
    ptx.inst.mul.rn.f32(acc, x, 1.0)
    ptx.cvt(f32, u32, x, cnt, rounding="rn")
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, row2, 2, mode="wide")
    pb2 = pb + ofs
    addr2 = reg.scalar(u64)
    ptx.mul(u32, addr2, row, 8, mode="wide")
    tile2 = reg.scalar(u32)
    ptx.mad(u32, tile2, cnt, row2, bid)
    buf = [reg.scalar(f32) for _ in range(4)]
    ptx.inst.add.u32(word, row, n)
    ptx.inst.fma.rn.f32(acc, acc, acc, x)
    addr3 = reg.scalar(u64)
    ptx.inst.mul.wide.u32(addr3, row2, 4)
    px2 = px + addr3
    sA = smem.wgmma_tile(bf16, (64, 16), major="K")
    sB = smem.wgmma_tile(bf16, (16, 16), major="MN")
    acc2 = reg.wgmma_frag(m=64, n=16, dtype=f32)
    ptx.wgmma.fence()
    for kk in range(4):
        ptx.wgmma.mma_async(shape=(64, 16, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16, d=acc2, a=sA, b=sB, scale_d=kk > 0, trans_b=1)
    ptx.wgmma.commit_group()
    ptx.wgmma.wait_group(0)
    parts = []
    for i in range(3):
        m = reg.scalar(f32)
        n4 = cnt2 + tid + cnt2
        ptx.inst.add.s64(packed, addr2, addr, pred=hit)
        pos = reg.scalar(u32)
        ptx.inst.ld.global_.u32(pos, ptx.addr(pw))
        frag = [reg.scalar(f32) for _ in range(4)]
        diff = reg.scalar(s64)
        ptx.inst.and_.b64(diff, packed, 0x3, pred=~hit)
        pos2 = reg.scalar(u32)
        ptx.inst.ld.global_.u32(pos2, ptx.addr(pb))
        ofs2 = addr3 << 3
        scale2 = reg.scalar(f32)
        ptx.ld(f32, scale2, ptx.addr(py), pred=hit)
        parts.append(m)
    ptx.bar.sync(1, 128)
    ptx.inst.mul.f32(buf[2], buf[2], acc)
    ptx.inst.st.global_.f32(ptx.addr(pb2), acc)
    i2 = reg.scalar(u32)
    ptx.selp(u32, i2, cnt, cnt2, hit)
    tile3 = row2 & 31 | 7
    k = reg.scalar(u32)
    ptx.inst.ld.global_.u32(k, ptx.addr(pw, 4))
    m2 = reg.scalar(f32)
    ptx.ld(f32, m2, ptx.addr(pb2, 8))
    ptx.ld(f32, acc2[3], ptx.addr(pb), pred=~hit)
    v2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(v2, ptx.addr(pw, 128))
    res = []
    for s in range(4):
        a = reg.scalar(f32)
        word2 = reg.scalar(b32)
        ptx.inst.shfl.sync.bfly.b32(word2, word, 1, 31, -1)
        for s2 in range(2):
            s3 = reg.scalar(f32)
            col = off + bid
            ptx.inst.shfl.sync.bfly.b32(word, tile, 16, 31, -1)
        res.append(a)
    g2 = [reg.scalar(f32) for _ in range(4)]
    ptx.inst.sub.f32(m2, v2, "0f3F800000")
    j = reg.from_(idx, s32)
    cnt3 = reg.from_(ptx.special.tid.x(), u32)
    def combine(bias, val, stride=1):
        ptx.inst.add.f32(acc2[4], acc, val, pred=hit)
        cnt4 = cnt2 - tile3
        ptx.inst.fma.rn.f32(acc2[6], acc, bias, bias)
    combine(acc, acc, stride=4)
    combine(v2, v2)
    bar = smem.mbarrier(1)
    with ptx.if_(tid == 0):
        for i3 in range(1):
            ptx.mbarrier.init(bar[i3], 1)
    ptx.fence.mbarrier_init()
    ptx.bar.sync(0)
    parity = reg.scalar(u32, init=0)
    with ptx.if_(tid == 0):
        ptx.mbarrier.arrive_expect_tx(bar[0], 4096)
    ptx.mul(u32, addr2, tile, 8, mode="wide")
    off2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(off2, ptx.addr(px, 32))
    step = reg.from_(ptx.special.ctaid.x(), s32)
    parity ^= 1
    pos3 = bid * k
    res2 = []
    for s4 in range(4):
        b = reg.scalar(f32)
        bits = reg.scalar(b32)
        ptx.inst.shfl.sync.bfly.b32(bits, n3, 2, 31, -1)
        cnt5 = ptx.special.tid.x()
        y = reg.scalar(f32)
        ptx.inst.abs.f32(y, v2)
        for i4 in range(4):
            v3 = reg.scalar(f32)
            gaddr = reg.scalar(u64)
            ptx.inst.add.s64(gaddr, addr2, 8192 * (s4 + 1), pred=~hit)
        packed2 = packed + cnt3 + s4 * 16
        d = reg.scalar(s32)
        ptx.inst.mul.hi.u32(d, parity, 31)
        res2.append(b)
    n5 = off | 65535
    buf2 = [reg.scalar(f32) for _ in range(4)]
    acc3 = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(acc3, tile2)
    ptx.bar.sync(0)
    ptx.inst.and_.b32(tile, row, 16)
    ofs3 = reg.scalar(u64)
    ptx.mul(u32, ofs3, k, 8, mode="wide")
    pw2 = pw + ofs3
    n6 = tile3 * 512 | 2
    ptx.inst.mul.rn.f32(m2, acc3, acc, pred=hit)
    pos4 = reg.from_(ptx.special.nctaid.x(), u32)
    w = reg.scalar(b64, init=0x1)
    ptx.add(u32, row, off, n3)
    buf3 = [reg.scalar(f32) for _ in range(4)]
    y2 = reg.scalar(f32)
    ptx.inst.mul.rn.f32(y2, acc3, x)
    ptx.inst.mul.f32(acc3, m2, m2)
    ptx.inst.min.f32(m2, y2, m2, pred=hit)
    for i5 in range(3):
        b2 = reg.scalar(f32)
        a2 = reg.scalar(f32)
        ptx.inst.rcp.approx.f32(a2, x)
        more = reg.scalar(pred)
        ptx.setp("ge", u32, more, cnt, i5 * 64)
        row3 = reg.scalar(u32)
        ptx.selp(u32, row3, j, off, hit)
        ptx.ld(f32, x, ptx.addr(px, 16 + i5 * 128), pred=more)
        k2 = reg.scalar(u32, init=1024 * (i5 + 1))
    ptx.ret()


KERNEL = k206213
ARGS = {}
