# dslgen: seed 2027, program 179533 (tools/dslgen/run.py --show 2027:179533)
# class: unfaithful
# module: first difference at token 3702 (inconsistent renaming: '%f19' was mapped to '%f19'): input line 651: '%f19' vs printed line 651: '%f23'
#       input : ... %f28 ; sub.f32 %f19 , %f19 ...
#       output: ... %f28 ; sub.f32 %f23 , %f23 ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    arch="sm_90a",
)
def k179533(X, Y, *, N=65536):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    py2 = py + 8
    s = reg.scalar(f32, init=1.0)
    def load_scaled(r, p):
        k = r * 16
        y = reg.scalar(f32)
        ptx.ld(f32, y, ptx.addr(p))
        ptx.inst.st.global_.u32(ptx.addr(py2, 1024), k)
        k -= tid
        boff = reg.scalar(u64)
        ptx.inst.mul.wide.u32(boff, r, 8)
        px2 = px + boff
        r += 256
        x = reg.scalar(f32)
        ptx.inst.sub.f32(x, y, 1.0)
    load_scaled(bid, py2)
    load_scaled(bid, px)
    acc = reg.scalar(f32)
    ptx.inst.mul.f32(acc, s, "0f3F800000")
    for kk in range(8):
        x2 = reg.scalar(f32)
        ptx.inst.mul.f32(s, x2, s)
        ptx.warp.reduce_sum(tid, width=16)
        pos = reg.scalar(u32)
        ptx.inst.ld.global_.u32(pos, ptx.addr(px, 8))
        ptx.warp.reduce_min(bid, width=4)
    py2 += 7
    ptx.inst.sub.f32(acc, acc, s)
    h = reg.scalar(b32)
    ptx.inst.min.u32(h, bid, 63)
    scale = reg.scalar(f32)
    ptx.inst.rcp.approx.f32(scale, acc)
    for w in range(2):
        acc2 = reg.scalar(f32)
        py -= 128
        pos2 = reg.scalar(u32)
        ptx.inst.min.u32(pos2, tid, h)
    ptx.warp.reduce_max(scale, width=4)
    ptx.bar.sync(0)
    col = tid | tid
    base = col & bid
    res = []
    for j in range(8):
        acc3 = reg.scalar(f32)
        pos3 = ptx.special.tid.x().max(h)
        res.append(acc3)
    m = reg.scalar(f32)
    ptx.inst.fma.rn.f32(m, acc, acc, scale)
    s2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(s2, ptx.addr(py2))
    lane = reg.from_(ptx.special.tid.y(), u32)
    ptx.inst.min.f32(s2, scale, s)
    for i in range(8):
        v = reg.scalar(f32)
        ptx.inst.not_.b32(tid, lane)
        ptx.inst.mul.rn.f32(s2, acc, acc)
        ptx.inst.max.f32(v, m, 1.0)
        ptx.inst.shfl.sync.bfly.b32(h, col, 2, 31, -1)
        desc = py2 + 255 - (bid >> 8)
        py3 = py + (h + lane)
    addr = reg.scalar(u64, init=2)
    ptx.inst.shfl.sync.bfly.b32(h, base, 16, 31, -1)
    def combine(bias):
        res2 = []
        for kk2 in range(4):
            y2 = reg.scalar(f32)
            ptx.inst.sub.f32(res[kk2], res[kk2], acc)
            acc4 = reg.scalar(f32)
            ptx.inst.add.f32(acc4, acc, s2)
            diff = reg.scalar(s64)
            ptx.inst.and_.b64(diff, addr, 0xff)
            i2 = base.max(4096)
            scale2 = reg.scalar(f32)
            ptx.inst.neg.f32(scale2, s2)
            res2.append(y2)
    combine(s2)
    combine(s)
    combine(s2)
    with ptx.if_(col == 255):
        for s3 in range(2):
            scale3 = reg.scalar(f32)
            ptx.inst.add.f32(res[6], res[6], scale)
        delta = reg.scalar(s32)
        ptx.inst.sub.s32(delta, tid, 1024)
        ofs = reg.scalar(u64)
        ptx.inst.mul.wide.u32(ofs, base, 4)
        py4 = py + ofs
    scale4 = reg.scalar(f32, init=0.125)
    ptx.inst.clz.b32(base, lane)
    n = ptx.special.tid.x() * 1023 - 4096
    ptx.inst.mul.rn.f32(acc, scale, scale)
    lane2 = base.max(n) << 7 ^ tid
    ptx.inst.ld.global_.f32(s2, ptx.addr(py2))
    lane3 = base.max(tid)
    ptx.inst.cvt.rn.f32.u32(scale, h)
    px3 = px + 1
    ptx.inst.st.global_.f32(ptx.addr(px3, 8), m)
    with ptx.if_(base & lane == 128):
        k2 = base | tid
        ptx.inst.fma.rn.f32(scale, acc, acc, m)
        j2 = reg.scalar(s32)
        ptx.inst.min.u32(j2, base, 8192)
    word = (h >> 2) - lane
    lane4 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(lane4, ptx.addr(px3, 16))
    ptx.inst.sqrt.approx.f32(m, scale4)
    def tile_step(val):
        acc5 = reg.scalar(f32)
        ptx.inst.add.rn.f32(acc5, acc, scale4)
        ptx.inst.neg.f32(scale, m)
    tile_step(s2)
    tile_step(s)
    tile_step(scale4)
    ptx.inst.max.f32(scale4, m, "0f3F800000")
    with ptx.if_(base < 256):
        ptx.inst.add.f32(res[7], res[7], scale)
        ofs2 = reg.scalar(u64)
        ptx.inst.mul.wide.u32(ofs2, bid, 4)
        py5 = py + ofs2
    with ptx.else_():
        base2 = (lane3 | bid) * ptx.special.tid.x()
        b = reg.scalar(f32)
        ptx.inst.rcp.approx.f32(b, m)
    ptx.ret()


KERNEL = k179533
ARGS = {}
