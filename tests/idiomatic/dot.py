"""A dot product by one warp: a strided loop that accumulates with fma,
then the warp's sum."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, pred, u32


@kernel(in_specs=(Tile("N", f32), Tile("N", f32)), out_specs=(Tile(1, f32),),
        grid=(1, 1, 1), block=(32, 1, 1), arch="sm_90a")
def dot(X, Y, Z, *, N=1024):
    px, py, pz = ptx.global_ptrs(X, Y, Z)
    lane = reg.from_(ptx.special.laneid(), u32)
    off = reg.scalar(b64)
    ptx.mul(u32, off, lane, 4, mode="wide")
    px += off
    py += off
    acc = reg.scalar(f32, init=0.0)
    i = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    x = reg.scalar(f32)
    y = reg.scalar(f32)
    with ptx.loop("dot_loop", pred=more):
        ptx.ld(f32, x, ptx.addr(px))
        ptx.ld(f32, y, ptx.addr(py))
        ptx.inst.fma.rn.f32(acc, x, y, acc)
        px += 128
        py += 128
        i += 32
        ptx.setp("lt", u32, more, i, N)
    ptx.warp.reduce_sum(acc)
    first = lane == 0
    with ptx.if_(first):
        ptx.st(f32, ptx.addr(pz), acc)
    ptx.ret()


KERNEL = dot
ARGS = {"N": 1024}
