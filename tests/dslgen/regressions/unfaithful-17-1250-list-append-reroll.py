# dslgen: seed 17, program 1250 (tools/dslgen/run.py --show 17:1250)
# class: unfaithful (repeat's register lists, before the fix)
# A loop's body rolled again after "repeat" appended a copy's register to a
# list: the append is a use of that register, so the body's declarations
# may not roll into an inner loop (whose last pass would leave another
# register in the name).
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    arch="sm_90a",
)
def k1250(X, W, Y, *, N=65536):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    tile = smem.alloc(f32, 256, name="tile")
    row = tid * 1024 * 63
    buf = [reg.scalar(f32) for _ in range(4)]
    ptx.inst.st.global_.u32(ptx.addr(pw, 256), row)
    s = reg.scalar(f32, init=1.0)
    res = []
    for j in range(4):
        y = reg.scalar(f32)
        xs = [reg.scalar(f32) for _ in range(4)]
        h = reg.scalar(b32)
        ptx.inst.xor.b32(h, bid, row)
        j2 = reg.scalar(s32)
        ptx.inst.and_.b32(j2, tid, 128 * (j + 1))
        res.append(y)
    desc = px + pw + 8
    for it in ptx.range_(bid, 32, 16):
        ptx.inst.fma.rn.f32(s, s, s, s)
        fr = reg.array(f32, 8)
        ptx.inst.st.global_.u32(ptx.addr(py, 4), tid)
        mask = reg.scalar(b32)
        ptx.inst.shfl.sync.bfly.b32(mask, tid, 1, 31, -1)
        v = reg.scalar(f32)
        ptx.inst.ld.global_.f32(v, ptx.addr(pw))
        ptx.inst.fma.rn.f32(v, s, s, v)
        ptx.inst.st.global_.u32(ptx.addr(py), row)
        ptx.inst.st.global_.f32(ptx.addr(py, 128), v)
        px2 = px + it
    t = reg.scalar(f32)
    ptx.inst.mul.f32(t, s, "0f3F800000")
    desc2 = py + 3 + 2
    j3 = reg.scalar(s32)
    ptx.inst.shr.u32(j3, row, 8)
    lane = row.max(bid)
    a = reg.scalar(f32)
    ptx.inst.add.f32(a, s, "0f3F800000")
    py2 = py + (j3 & 1)
    packed = pw + j3
    n = reg.scalar(u32)
    ptx.inst.mul.lo.u32(n, tid, tid)
    ptx.inst.ld.global_.f32(a, ptx.addr(py, 256))
    ptx.inst.mul.f32(res[2], res[2], t)
    for kt in ptx.range_(0, 64, 16):
        xs2 = [reg.scalar(f32) for _ in range(4)]
        x = reg.scalar(f32)
        ptx.inst.sub.f32(x, s, 1.0)
        ptx.inst.mul.f32(t, a, s)
        ptx.inst.st.shared.f32(ptx.addr(tile, 32), a)
        d = j3 + 0xffff
        pos = (lane + bid - 4096).max(7)
        s2 = reg.scalar(f32)
        ptx.inst.ld.shared.f32(s2, ptx.addr(tile, 32))
        rem = j3 ^ d
    addr = reg.scalar(u64)
    ptx.inst.mul.wide.u32(addr, lane, 4)
    px3 = px + addr
    ptx.inst.st.global_.f32(ptx.addr(px3, 4), s)
    for k in ptx.range_(0, 32, 16):
        fr2 = reg.array(f32, 8)
        v2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(v2, ptx.addr(pw))
        parts = []
        for i in range(4):
            t2 = reg.scalar(f32)
            idx = reg.scalar(u32, init=8192 * (i + 1))
            parts.append(t2)
    flags = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(flags, n, 8, 31, -1)
    acc = reg.scalar(f32)
    ptx.inst.fma.rn.f32(acc, a, s, t)
    bits = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(bits, row, 2, 31, -1)
    ptx.inst.fma.rn.f32(acc, s, a, acc)
    bits2 = bits + lane & row
    acc2 = reg.scalar(f32, init=0.125)
    ptx.inst.add.u32(j3, row, bits2)
    ptx.inst.st.global_.f32(ptx.addr(px3, 4096), acc)
    ptx.inst.st.global_.f32(ptx.addr(py2), t)
    cnt = reg.scalar(u32)
    ptx.inst.ld.global_.u32(cnt, ptx.addr(pw))
    py3 = py + 512
    ptx.inst.fma.rn.f32(s, t, acc, a)
    for k2 in ptx.range_(n, 128, 64):
        key = flags.max(j3)
        flags2 = (bits << tid) + flags
        ptx.inst.sub.s32(j3, cnt, tid)
        row2 = bid + row >> row & key
    parts2 = []
    for s3 in range(2):
        m = reg.scalar(f32)
        ptx.inst.min.f32(acc, s, acc)
        fr3 = reg.array(f32, 8)
        ptx.inst.fma.rn.f32(fr3[1], fr3[6], fr3[2], fr3[1])
        done = reg.scalar(pred)
        ptx.inst.st.global_.f32(ptx.addr(px3, 4096), fr3[5])
        sidx = reg.scalar(s32, init=15)
        n2 = bid if s3 == 0 else bid + s3 * 16
        ptx.inst.ld.global_.u32(n2, ptx.addr(px, s3 * 64))
        ptx.inst.lg2.approx.f32(fr3[2], t)
        v3 = reg.scalar(f32)
        ptx.inst.sub.f32(v3, s, s)
        parts2.append(m)
    delta = j3 | flags
    ptx.ret()


KERNEL = k1250
ARGS = {}
