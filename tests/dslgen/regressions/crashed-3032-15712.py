# dslgen: seed 3032, program 15712 (tools/dslgen/run.py --show 3032:15712)
# class: crashed
# generated code raised UnboundLocalError: cannot access local variable 'r79' where it is not associated with a value
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    arch="sm_90a",
)
def k15712(X, Y, *, N=1048576):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    tile = smem.alloc(f32, (16, 32), name="tile")
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, tid, 16, mode="wide")
    x = reg.scalar(f32)
    ptx.ld(f32, x, ptx.addr(py, 128))
    more = reg.scalar(pred)
    idx = tid + tid
    done = reg.scalar(pred)
    ptx.setp("ne", u32, done, idx, tid)
    def tile_step(val):
        for kk in range(4):
            t = reg.scalar(f32)
            tile[bid, tid] = val
            ptx.add(u32, bid, idx, tid)
            tile2 = reg.scalar(u32)
            ptx.inst.add.u32(tile2, tid, tile2)
            b = reg.scalar(f32)
            ptx.inst.add.rn.f32(b, t, "0f3F800000")
            lane = idx ^ bid
        cnt = idx + tid
        return cnt
    tile_step(x)
    tile_step(x)
    pos = tile_step(x)
    ptx.mad(u32, bid, idx, pos, 256)
    def accumulate(w, k=128):
        g = [reg.scalar(f32) for _ in range(8)]
        col = reg.scalar(u32)
        ptx.inst.mov.b32(col, idx)
        return col
    idx2 = accumulate(x)
    row = accumulate(x)
    col2 = accumulate(x, k=2)
    bar = smem.mbarrier(1)
    with ptx.if_(tid == 0):
        for i in range(1):
            ptx.mbarrier.init(bar[i], 1)
    ptx.fence.mbarrier_init()
    ptx.bar.sync(0)
    phase = reg.scalar(u32, init=0)
    with ptx.if_(tid == 0):
        ptx.mbarrier.arrive_expect_tx(bar[0], 4096)
    phase += 0x7
    pos2 = reg.scalar(u32)
    ptx.add(u32, pos2, pos, 3, pred=~done)
    state = ptx.mbarrier.arrive(bar[0])
    s = tile[idx, 21]
    sidx = reg.scalar(s32, init=8)
    ptx.mbarrier.wait(bar[0], 1)
    ptx.inst.cvt.rn.f32.u32(s, col2)
    phase ^= 1
    bid ^= idx
    phase += 2
    b2 = tile[col2, 12]
    def combine(p, src):
        s2 = reg.scalar(f32)
        ptx.ld(f32, s2, ptx.addr(p))
        ptx.inst.fma.rn.f32(b2, s2, x, s)
        key = reg.scalar(b32)
        ptx.inst.shfl.sync.bfly.b32(key, pos, 1, 31, -1)
        return s2
    acc = combine(py, py)
    acc2 = combine(py, py)
    x2 = combine(py, py)
    m = tile[phase, 29]
    d = sidx.max(row)
    y = reg.scalar(f32)
    ptx.inst.max.f32(y, b2, b2)
    x3 = reg.scalar(f32)
    ptx.ld(f32, x3, ptx.addr(py, 512))
    out = []
    for w2 in range(2):
        t2 = reg.scalar(f32)
        pos ^= 8
        pos3 = reg.scalar(u32)
        ptx.ld(u32, pos3, ptx.addr(py))
        off = pos + 512 - 255
        ptx.st(u32, ptx.addr(py, 512), row, pred=done)
        row += 31
        out.append(t2)
    ptx.ret()


KERNEL = k15712
ARGS = {}
