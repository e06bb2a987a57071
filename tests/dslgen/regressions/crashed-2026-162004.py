# dslgen: seed 2026, program 162004 (tools/dslgen/run.py --show 2026:162004)
# class: crashed
# generated code raised UnboundLocalError: cannot access local variable 'p' where it is not associated with a value
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    arch="sm_90a",
)
def k162004(X, W, B, Y, *, N=1048576):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    sh = smem.alloc(u32, (8, 64))
    acc = reg.scalar(f32, init=1.0)
    ptx.st(f32, ptx.addr(pw), acc)
    k = reg.scalar(u32)
    ptx.inst.ld.shared.u32(k, ptx.addr(sh, 128))
    g = [reg.scalar(f32) for _ in range(4)]
    for s in range(4):
        v = reg.scalar(f32)
        desc = pw + py + k
        ofs = reg.scalar(u64)
        ptx.mul(u32, ofs, k, 4, mode="wide")
    pos = (k ^ 64) * k
    ptx.inst.add.rn.f32(acc, acc, "0f3F800000")
    sidx = reg.scalar(s32, init=4)
    frag = [reg.scalar(f32) for _ in range(4)]
    mask = reg.scalar(b32)
    ptx.inst.min.u32(mask, tid, tid)
    w = reg.scalar(b64, init=127)
    gaddr = reg.scalar(u64)
    ptx.inst.mov.u64(gaddr, w)
    pos2 = sh[pos, 46]
    off = sh[k, 39]
    ptx.ld(f32, acc, ptx.addr(pw))
    y = reg.scalar(f32, init=1.0)
    res = []
    for s2 in range(4):
        v2 = reg.scalar(f32)
        if s2 == 3:
            ptx.inst.shfl.sync.bfly.b32(mask, pos2, 8, 31, -1)
            desc2 = py + 4096 + 127
            ptx.inst.fma.rn.f32(v2, acc, v2, y)
            sidx2 = reg.scalar(s32, init=512)
        ptx.mul(u32, gaddr, k, 128, mode="wide")
        rem = reg.scalar(s32, init=255)
        out = []
        for j in range(8):
            a = reg.scalar(f32)
            ptx.ld(f32, a, ptx.addr(py, 32))
            ptx.inst.fma.rn.f32(v2, v2, a, v2)
            ptx.inst.st.global_.f32(ptx.addr(pw, 128), acc)
            pos3 = pos2 * 2
            row = reg.scalar(u32)
            ptx.ld(u32, row, ptx.addr(sh, 4096), space="shared")
            out.append(a)
        res.append(v2)
    ptx.inst.st.global_.f32(ptx.addr(px), acc)
    ptx.inst.xor.b32(pos2, mask, pos2)
    ptx.cp.async_.cg(ptx.addr(sh, 0), ptx.addr(pw, 0), 16)
    ptx.cp.async_.commit_group()
    ptx.cp.async_.wait_group(0)
    ptx.bar.sync(0)
    ptx.inst.add.f32(res[2], res[2], acc)
    ptx.ld(u32, k, ptx.addr(pw))
    cnt = reg.scalar(u32)
    ptx.inst.ld.global_.u32(cnt, ptx.addr(pw, 64))
    col = reg.scalar(u32)
    ptx.ld(u32, col, ptx.addr(px, 128))
    tile = reg.scalar(u32)
    ptx.inst.shr.u32(tile, k, 4)
    flags = mask + off
    a2 = reg.scalar(f32)
    ptx.ld(f32, a2, ptx.addr(pw))
    ptx.add(u32, tid, flags, tile)
    g2 = [reg.scalar(f32) for _ in range(2)]
    ptx.ld(u32, off, ptx.addr(pw, 32))
    s3 = reg.scalar(f32, init=1.0)
    g3 = [reg.scalar(f32) for _ in range(4)]
    step = sidx + k
    ptx.inst.add.rn.f32(s3, s3, 1.0)
    ptx.inst.max.f32(s3, a2, 1.0)
    sh[pos2, 13] = pos2
    cnt2 = reg.scalar(u32)
    ptx.inst.max.s32(cnt2, off, sidx)
    s4 = reg.scalar(f32, init=0.125)
    row2 = cnt >> 2 & 15
    j2 = reg.scalar(s32)
    ptx.inst.add.u32(j2, step, 7)
    ptx.inst.st.global_.f32(ptx.addr(px), s3)
    ptx.inst.mul.f32(g[3], g[3], y)
    g4 = [reg.scalar(f32) for _ in range(4)]
    tile2 = (col & 4096) + 0x200 + 15
    ptx.st(u32, ptx.addr(py, 512), tile)
    ptx.mul(u32, gaddr, mask, 128, mode="wide")
    base = (row2 ^ 7) - tid
    out2 = []
    for i in range(2):
        m = reg.scalar(f32)
        if i > 0:
            lane = cnt + pos + 32
            col2 = reg.scalar(u32)
            ptx.ld(u32, col2, ptx.addr(px, 64))
        ptx.inst.st.global_.f32(ptx.addr(pw, 512), acc)
        step2 = sidx >> 1
        first = reg.scalar(pred)
        ptx.selp(u32, cnt2, step2, 0x1000, first)
        boff = gaddr ^ 1
        base2 = (ptx.special.tid.x() & 255) + j2
        ptx.st(u32, ptx.addr(px, 128), tile2)
        ofs2 = boff * pw
        out2.append(m)
    ptx.ret()


KERNEL = k162004
ARGS = {}
