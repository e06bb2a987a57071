"""preds: a comparison read only by the next statement is nested into it."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def preds_guard(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    x = reg.scalar(u32, init=0)
    ptx.mov(u32, x, 7, pred=(tid < 16))
    with ptx.if_(tid > 100):
        x += 3
    ptx.ret()


KERNEL = preds_guard
ARGS = {}
