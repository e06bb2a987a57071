"""loops: a label and its back edge come back as ptx.loop."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def loops_back_edge(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    n = reg.scalar(u32, init=8)
    acc = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    with ptx.loop("top", pred=more):
        acc += tid
        n -= 1
        ptx.setp("ne", u32, more, n, 0)
    ptx.ret()


KERNEL = loops_back_edge
ARGS = {}
