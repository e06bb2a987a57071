"""Row softmax over rows of 64 floats, one warp per row: the warp's max,
exp2 of the scaled differences, the warp's sum, and the division."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

D = 64
PER_LANE = D // 32
LOG2E = 1.4426950408889634


@kernel(in_specs=(Tile("R", D, f32),), out_specs=(Tile("R", D, f32),),
        grid=lambda R: (R, 1, 1), block=(32, 1, 1), arch="sm_90a")
def softmax(X, Y, *, R=128):
    px, py = ptx.global_ptrs(X, Y)
    lane = reg.from_(ptx.special.laneid(), u32)
    row = reg.from_(ptx.special.ctaid.x(), u32)
    off = reg.scalar(b64)
    ptx.mad(u32, off, row, D * 4, 0, mode="wide")
    px += off
    py += off
    ptx.mul(u32, off, lane, 4, mode="wide")
    px += off
    py += off
    x = reg.array(f32, PER_LANE)
    for j in range(PER_LANE):
        ptx.ld(f32, x[j], ptx.addr(px, 128 * j))
    m = reg.scalar(f32)
    ptx.inst.max.f32(m, x[0], x[1])
    ptx.warp.reduce_max(m)
    log2e = reg.scalar(f32, init=LOG2E)
    s = reg.scalar(f32, init=0.0)
    for j in range(PER_LANE):
        ptx.sub(f32, x[j], x[j], m)
        ptx.mul(f32, x[j], x[j], log2e)
        ptx.inst.ex2.approx.f32(x[j], x[j])
        ptx.add(f32, s, s, x[j])
    ptx.warp.reduce_sum(s)
    ptx.inst.rcp.approx.f32(s, s)
    for j in range(PER_LANE):
        ptx.mul(f32, x[j], x[j], s)
        ptx.st(f32, ptx.addr(py, 128 * j), x[j])
    ptx.ret()


KERNEL = softmax
ARGS = {"R": 128}
