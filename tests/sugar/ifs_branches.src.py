"""ifs: the branches ptx.if_ and ptx.else_ emit come back as those blocks."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def ifs_branches(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    x = reg.scalar(u32, init=0)
    with ptx.if_(tid < 32):
        x += 1
    with ptx.else_():
        x += 2
    with ptx.if_(tid == 0):
        x <<= 1
    ptx.ret()


KERNEL = ifs_branches
ARGS = {}
