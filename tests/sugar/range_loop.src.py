"""range: the counted loop ptx.range_ emits comes back as that loop."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def range_loop(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    acc = reg.scalar(u32, init=0)
    for i in ptx.range_(0, 16, 2):
        acc += tid
    ptx.ret()


KERNEL = range_loop
ARGS = {}
