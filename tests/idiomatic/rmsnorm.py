"""RMSNorm over rows of 128 floats, one warp per row: each lane takes four
elements, the warp sums their squares, and every element is scaled by
rsqrt(mean + eps) and its weight."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

D = 128
PER_LANE = D // 32


@kernel(in_specs=(Tile("R", D, f32), Tile(D, f32)), out_specs=(Tile("R", D, f32),),
        grid=lambda R: (R, 1, 1), block=(32, 1, 1), arch="sm_90a")
def rmsnorm(X, W, Y, *, R=64):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    lane = reg.from_(ptx.special.laneid(), u32)
    row = reg.from_(ptx.special.ctaid.x(), u32)
    roff = reg.scalar(b64)
    ptx.mul(u32, roff, row, D * 4, mode="wide")
    px += roff
    py += roff
    loff = reg.scalar(b64)
    ptx.mul(u32, loff, lane, 4, mode="wide")
    px += loff
    py += loff
    pw += loff
    x = reg.array(f32, PER_LANE)
    for j in range(PER_LANE):
        ptx.ld(f32, x[j], ptx.addr(px, 128 * j))
    ss = reg.scalar(f32, init=0.0)
    for j in range(PER_LANE):
        ptx.inst.fma.rn.f32(ss, x[j], x[j], ss)
    ptx.warp.reduce_sum(ss)
    inv_d = reg.scalar(f32, init=1.0 / D)
    eps = reg.scalar(f32, init=1e-6)
    ptx.inst.fma.rn.f32(ss, ss, inv_d, eps)
    ptx.inst.rsqrt.approx.f32(ss, ss)
    w = reg.scalar(f32)
    for j in range(PER_LANE):
        ptx.ld(f32, w, ptx.addr(pw, 128 * j))
        ptx.mul(f32, x[j], x[j], ss)
        ptx.mul(f32, x[j], x[j], w)
        ptx.st(f32, ptx.addr(py, 128 * j), x[j])
    ptx.ret()


KERNEL = rmsnorm
ARGS = {"R": 64}
