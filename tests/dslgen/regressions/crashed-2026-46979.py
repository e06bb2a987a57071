# dslgen: seed 2026, program 46979 (tools/dslgen/run.py --show 2026:46979)
# class: crashed
# generated code raised SyntaxError: invalid syntax (<generated>, line 70)
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
def k46979(X, W, Y, *, N=65536):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    n = ptx.param(u32, "n")
    col = bid & bid
    py2 = py + bid
    row = reg.scalar(u32)
    ptx.inst.popc.b32(row, col)
    pos = n >> 1
    with ptx.if_(col >> 2 < 16):
        cnt = reg.scalar(u32)
        ptx.inst.ld.global_.u32(cnt, ptx.addr(py2, 512))
        rem = reg.scalar(s32)
        ptx.inst.min.u32(rem, cnt, cnt)
        b = reg.scalar(f32, init=1.0)
        vals = [reg.scalar(f32) for _ in range(4)]
        g = [reg.scalar(f32) for _ in range(8)]
    off = reg.scalar(u32)
    ptx.inst.ld.global_.u32(off, ptx.addr(pw))
    n2 = pos << 8
    res = []
    for j in range(8):
        m = reg.scalar(f32)
        for kk in range(8):
            s = reg.scalar(f32)
            tile = reg.scalar(u32)
            ptx.inst.and_.b32(tile, n2, 16 * (j + 1))
        out = []
        for u in range(2):
            acc = reg.scalar(f32)
            a = reg.scalar(f32)
            ptx.inst.ld.global_.f32(a, ptx.addr(pw))
            out.append(acc)
        res.append(m)
    idx = (ptx.special.tid.x() << 2) - col
    tile2 = reg.scalar(u32)
    ptx.ld(u32, tile2, ptx.addr(pw))
    cnt2 = pos ^ 128
    px2 = px + n
    row2 = ptx.special.tid.x() + 2
    y = reg.scalar(f32, init=0.125)
    bits = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(bits, tid, 2, 31, -1)
    gaddr = reg.scalar(u64)
    ptx.mul(u32, gaddr, cnt2, 128, mode="wide")
    key = reg.scalar(b32)
    ptx.inst.or_.b32(key, bits, row)
    boff = reg.scalar(u64)
    ptx.mul(u32, boff, tid, 16, mode="wide")
    t = reg.scalar(f32)
    ptx.inst.ld.global_.f32(t, ptx.addr(py))
    idx2 = reg.scalar(u32)
    ptx.mov(u32, idx2, n)
    ptx.st(f32, ptx.addr(py2), y)
    cnt3 = reg.from_(ptx.special.tid.y(), u32)
    ptx.inst.ld.global_.f32(y, ptx.addr(py))
    ptx.inst.sub.f32(res[5], res[5], y)
    xs = [reg.scalar(f32) for _ in range(4)]
    frag = [reg.scalar(f32) for _ in range(2)]
    base = cnt2 - tile2 + 16 << 3
    ptx.sub(s32, n, n, idx)
    ptx.inst.shfl.sync.bfly.b32(key, key, 1, 31, -1)
    ptx.mul(u32, gaddr, idx, 16, mode="wide")
    bars = smem.mbarrier(2)
    with ptx.if_(tid == 0):
        ptx.mbarrier.init(bars[0], 1)
        ptx.mbarrier.init(bars[1], 1)
    ptx.fence.mbarrier_init()
    ptx.bar.sync(0)
    phase = reg.scalar(u32, init=0)
    ptx.mbarrier.wait(bars[0], phase)
    py3 = py + 16
    k = reg.scalar(u32)
    ptx.ld(u32, k, ptx.addr(py, 4096))
    phase ^= 1
    for s2 in range(2):
        s3 = reg.scalar(f32)
        res2 = []
        for j2 in range(3):
            s4 = reg.scalar(f32)
            for kk2 in range(4):
                acc2 = reg.scalar(f32)
                ptx.bar.sync(0)
            base2 = reg.scalar(u32)
            ptx.add(u32, base2, bid, (1023 + 4 * j2))
            res2.append(s4)
        ptx.inst.add.f32(res2[s2], res2[s2], t)
        boff2 = reg.scalar(u64)
        ptx.mul(u32, boff2, pos, 16, mode="wide")
        pw2 = pw + boff2
        ptx.inst.st.global_.f32(ptx.addr(py2, 4 + s2 * 16), s3)
        bits2 = reg.scalar(b32)
        ptx.inst.shfl.sync.bfly.b32(bits2, bits, 2, 31, -1)
    with ptx.if_(base < 64):
        with ptx.if_(col > 63):
            k2 = row2 * 128
            pw3 = pw + 1024
            vals2 = [reg.scalar(f32) for _ in range(4)]
            lane = k.max(255).max(tid)
            py4 = py3 + 64
            pw4 = pw3 + (base + 0x100)
            ptx.st(u32, ptx.addr(pw3), tid)
            for kk3 in range(8):
                t2 = reg.scalar(f32)
                py5 = py2 + 3
    scale = reg.scalar(f32)
    ptx.inst.ld.global_.f32(scale, ptx.addr(py2, 128))
    t3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(t3, ptx.addr(px, 32))
    k3 = cnt3 + 256
    out2 = []
    for i in range(3):
        x = reg.scalar(f32)
        res3 = []
        for u2 in range(8):
            x2 = reg.scalar(f32)
            for u3 in range(2):
                s5 = reg.scalar(f32)
                ptx.inst.sub.f32(xs[u3], xs[u3], x)
            ptx.inst.add.f32(xs[i], xs[i], scale)
            lane2 = phase ^ row2
            res3.append(x2)
        col2 = ptx.special.tid.x().max(pos) | bits
        boff3 = reg.scalar(u64)
        ptx.mul(u32, boff3, tile2, 4, mode="wide")
        first = reg.scalar(pred)
        ptx.st(f32, ptx.addr(px, 128), scale, pred=~first)
        p = reg.scalar(pred)
        ptx.setp("eq", u32, p, off, 1024 * (i + 1))
        out2.append(x)
    ptx.inst.mul.lo.u32(k3, key, phase)
    k4 = k3 * 127
    n3 = ptx.mad(idx2, 32768, n)
    ptx.mov(u32, k4, 7)
    ptx.ret()


KERNEL = k46979
ARGS = {}
