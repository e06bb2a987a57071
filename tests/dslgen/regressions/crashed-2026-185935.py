# dslgen: seed 2026, program 185935 (tools/dslgen/run.py --show 2026:185935)
# class: crashed
# generated code raised SyntaxError: invalid syntax (<generated>, line 13)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    arch="sm_90a",
)
def k185935(X, W, Y, *, N=1048576):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    px += tid
    ptx.st(u32, ptx.addr(pw), tid)
    acc = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc, ptx.addr(px))
    key = reg.scalar(b32, init=15)
    for w in range(4):
        b = reg.scalar(f32)
        py += bid
        ptx.inst.abs.f32(acc, b)
    py += tid
    for i in range(3):
        s = reg.scalar(f32)
        ptx.inst.st.global_.f32(ptx.addr(py, 4 + i * 16), acc)
    ptx.inst.min.f32(acc, acc, acc)
    hit = reg.scalar(pred)
    i2 = reg.from_(ptx.special.laneid(), u32)
    tid -= i2
    m = reg.scalar(f32)
    ptx.inst.ld.global_.f32(m, ptx.addr(py, 8))
    ptx.inst.st.global_.u32(ptx.addr(pw), i2)
    pw -= 63
    px += 256
    pw += i2
    scale = reg.scalar(f32)
    ptx.inst.add.f32(scale, m, "0f3F800000")
    ptx.inst.st.global_.u32(ptx.addr(px, 1024), bid)
    def load_scaled(r):
        base = r * 63
        packed = reg.scalar(b64, init=7)
        x = reg.scalar(f32)
        ptx.inst.lg2.approx.f32(x, acc)
        acc2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(acc2, ptx.addr(py, 1024), pred=hit)
        packed2 = reg.scalar(b64, init=1024)
        done = reg.scalar(pred)
        ptx.setp("eq", u32, done, r, key)
        ptx.add(u32, base, bid, tid)
        return base
    lane = load_scaled(key)
    off = load_scaled(lane)
    base2 = load_scaled(off)
    idx = reg.scalar(u32)
    ptx.shr(u32, idx, bid, 6)
    y = reg.scalar(f32)
    ptx.ld(f32, y, ptx.addr(pw, 1024))
    py -= 0x3ff
    for kk in range(3):
        x2 = reg.scalar(f32)
        ptx.st(f32, ptx.addr(pw), acc, pred=hit)
        boff = reg.scalar(u64)
        ptx.mul(u32, boff, i2, 16, mode="wide")
        b2 = reg.scalar(f32)
        ptx.ld(f32, b2, ptx.addr(pw))
        v = reg.scalar(f32)
        ptx.inst.lg2.approx.f32(v, y)
        tile = reg.scalar(u32)
        ptx.mad(u32, tile, bid, off, lane)
        t = reg.scalar(f32)
        ptx.inst.neg.f32(t, b2)
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, tid, 4, mode="wide")
    px -= ofs
    acc3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc3, ptx.addr(pw, 64))
    off2 = ptx.mad(key, 64, 255)
    scale2 = reg.scalar(f32)
    ptx.inst.min.f32(scale2, m, "0f3F800000")
    lane |= bid
    key += 8192
    s2 = reg.scalar(f32)
    ptx.inst.mul.f32(s2, scale, 1.0)
    v2 = reg.scalar(f32)
    ptx.ld(f32, v2, ptx.addr(pw))
    sidx = reg.scalar(s32, init=1024)
    base3 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(base3, ptx.addr(py))
    def load_scaled2(k=128):
        ptx.st(u32, ptx.addr(px), base2)
        r2 = reg.array(u32, 16)
        x3 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(x3, ptx.addr(px))
        ptx.inst.cvt.rn.f32.u32(v2, r2[3])
        ptx.add(u32, r2[9], lane, idx)
        ptx.setp("ne", u32, hit, r2[9], base3)
        boff2 = reg.scalar(u64)
        ptx.mul(u32, boff2, r2[14], 4, mode="wide")
        return x3
    s3 = load_scaled2()
    load_scaled2(k=16)
    ptx.ret()


KERNEL = k185935
ARGS = {}
