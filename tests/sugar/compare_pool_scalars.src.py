"""compare: reg.scalar(pred) that nothing names, or that is named only
after a later comparison, still takes its place in the predicate pool."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import f32, pred, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def compare_pool_scalars(X, Y):
    unused = reg.scalar(pred)
    tid = reg.from_(ptx.special.tid.x(), u32)
    done = reg.scalar(pred)
    first = tid == 0
    x = reg.scalar(u32, init=0)
    ptx.mov(u32, x, 1, pred=first)
    ptx.setp("lt", u32, done, x, 4)
    ptx.mov(u32, x, 2, pred=done)
    spare = reg.scalar(pred)
    y = reg.scalar(u32)
    ptx.add(u32, y, x, tid)
    ptx.ret()


KERNEL = compare_pool_scalars
ARGS = {}
