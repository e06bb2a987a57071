"""The sum of 32 floats by one warp: a butterfly reduction."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32


@kernel(in_specs=(Tile(32, f32),), out_specs=(Tile(1, f32),),
        grid=(1, 1, 1), block=(32, 1, 1), arch="sm_90a")
def warp_sum(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    lane = reg.from_(ptx.special.laneid(), u32)
    off = reg.scalar(b64)
    ptx.mul(u32, off, lane, 4, mode="wide")
    px += off
    acc = reg.scalar(f32)
    ptx.ld(f32, acc, ptx.addr(px))
    ptx.warp.reduce_sum(acc)
    first = lane == 0
    with ptx.if_(first):
        ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()


KERNEL = warp_sum
ARGS = {}
