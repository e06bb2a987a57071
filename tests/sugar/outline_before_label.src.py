"""outline: copies followed in their list by a label (here a ptx.loop's)
are outlined all the same: a statement may not move into a helper for what
it is, not for what comes after it."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def outline_before_label(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    def scale(v, k):
        t = reg.scalar(f32)
        ptx.ld(f32, t, ptx.addr(px, k))
        ptx.mul(f32, t, t, v)
        ptx.inst.fma.rn.f32(t, t, v, t)
        ptx.st(f32, ptx.addr(py, k), t)
    u = reg.scalar(f32, init=2.0)
    w = reg.scalar(f32, init=3.0)
    scale(u, 0)
    scale(w, 64)
    scale(u, 4)
    n = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    with ptx.loop("again", pred=more):
        n += 1
        ptx.setp("lt", u32, more, n, 4)
    ptx.ret()


KERNEL = outline_before_label
ARGS = {}
