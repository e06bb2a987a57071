"""Sum of N floats: each thread accumulates a grid-stride slice, each warp
reduces its 32 partial sums with shuffles, the eight warp sums meet in
shared memory behind a CTA barrier, warp 0 reduces them and lane 0 adds
the CTA's total to the result with one atomic."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b64, f32, pred, u32

THREADS = 256
WARPS = THREADS // 32
CTAS = 128
STRIDE = THREADS * CTAS


@kernel(in_specs=(Tile("N", f32),), out_specs=(Tile(1, f32),),
        grid=(CTAS, 1, 1), block=(THREADS, 1, 1), arch="sm_90a")
def block_reduce(X, Y, *, N=1 << 20):
    px, py = ptx.global_ptrs(X, Y)
    partial = smem.alloc(f32, WARPS)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    lane = tid & 31
    warp = tid >> 5
    i = reg.scalar(u32)
    ptx.mad(u32, i, bid, THREADS, tid)
    off = reg.scalar(b64)
    ptx.mul(u32, off, i, 4, mode="wide")
    px += off

    acc = reg.scalar(f32, init=0.0)
    x = reg.scalar(f32)
    more = reg.scalar(pred)
    with ptx.loop("grid_stride", pred=more):
        ptx.ld(f32, x, ptx.addr(px))
        ptx.add(f32, acc, acc, x)
        px += STRIDE * 4
        i += STRIDE
        ptx.setp("lt", u32, more, i, N)
    ptx.warp.reduce_sum(acc)

    # one partial per warp in shared memory
    base = reg.from_(partial.name, u32)
    slot = base + (warp << 2)
    with ptx.if_(lane == 0):
        smem.store(f32, ptx.addr(slot), acc)
    ptx.bar.sync(0)

    with ptx.if_(warp == 0):
        total = reg.scalar(f32, init=0.0)
        mine = base + (lane << 2)
        ptx.ld(f32, total, ptx.addr(mine), space="shared", pred=lane < WARPS)
        ptx.warp.reduce_sum(total, width=WARPS)
        with ptx.if_(lane == 0):
            ptx.inst.red.global_.add.f32(ptx.addr(py), total)
    ptx.ret()


KERNEL = block_reduce
ARGS = {"N": 1 << 20}
