"""group: declarations in a row that allocate alike share one line."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def group_declarations(X, Y):
    a = reg.scalar(f32, init=0.0)
    b = reg.scalar(f32, init=0.0)
    c = reg.scalar(f32, init=0.0)
    ptx.add(f32, a, b, c)
    ptx.ret()


KERNEL = group_declarations
ARGS = {}
