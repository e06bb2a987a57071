"""compare: setp into pyptx's predicate pool comes back as comparisons."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def compare_predicates(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    lane = tid & 31
    first = lane == 0
    big = tid >= 64
    x = reg.scalar(u32, init=0)
    ptx.mov(u32, x, 1, pred=first)
    ptx.mov(u32, x, 2, pred=big)
    ptx.ret()


KERNEL = compare_predicates
ARGS = {}
