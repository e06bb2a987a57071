"""LayerNorm over rows of 256 floats, four rows per CTA and one warp per
row: each lane keeps eight elements in registers, the warp sums them for
the mean, sums the squared deviations for the variance, and writes
(x - mean) * rsqrt(var + eps) * gamma + beta."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

D = 256
PER_LANE = D // 32
ROWS = 4


@kernel(in_specs=(Tile("R", D, f32), Tile(D, f32), Tile(D, f32)),
        out_specs=(Tile("R", D, f32),),
        grid=lambda R: (R // ROWS, 1, 1), block=(32 * ROWS, 1, 1), arch="sm_90a")
def layernorm(X, G, B, Y, *, R=512):
    px, pg, pb, py = ptx.global_ptrs(X, G, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    lane = tid & 31
    warp = tid >> 5
    row = reg.scalar(u32)
    ptx.mad(u32, row, bid, ROWS, warp)
    roff = reg.scalar(b64)
    ptx.mul(u32, roff, row, D * 4, mode="wide")
    px += roff
    py += roff
    loff = reg.scalar(b64)
    ptx.mul(u32, loff, lane, 4, mode="wide")
    px += loff
    py += loff
    pg += loff
    pb += loff

    x = reg.array(f32, PER_LANE)
    for j in range(PER_LANE):
        ptx.ld(f32, x[j], ptx.addr(px, 128 * j))

    # mean
    mean = reg.scalar(f32, init=0.0)
    for j in range(PER_LANE):
        ptx.add(f32, mean, mean, x[j])
    ptx.warp.reduce_sum(mean)
    inv_d = reg.scalar(f32, init=1.0 / D)
    ptx.mul(f32, mean, mean, inv_d)

    # variance of the centred values
    var = reg.scalar(f32, init=0.0)
    for j in range(PER_LANE):
        ptx.sub(f32, x[j], x[j], mean)
        ptx.inst.fma.rn.f32(var, x[j], x[j], var)
    ptx.warp.reduce_sum(var)
    eps = reg.scalar(f32, init=1e-5)
    rstd = reg.scalar(f32)
    ptx.inst.fma.rn.f32(rstd, var, inv_d, eps)
    ptx.inst.rsqrt.approx.f32(rstd, rstd)

    # normalize, scale and shift
    g = reg.scalar(f32)
    b = reg.scalar(f32)
    for j in range(PER_LANE):
        ptx.ld(f32, g, ptx.addr(pg, 128 * j))
        ptx.ld(f32, b, ptx.addr(pb, 128 * j))
        ptx.mul(f32, x[j], x[j], rstd)
        ptx.inst.fma.rn.f32(x[j], x[j], g, b)
        ptx.st(f32, ptx.addr(py, 128 * j), x[j])
    ptx.ret()


KERNEL = layernorm
ARGS = {"R": 512}
