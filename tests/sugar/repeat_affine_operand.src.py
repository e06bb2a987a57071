"""repeat: an operator whose constant grows with a Python loop.  The
rolled loop's index is an operator's operand: `tid + (32768 + 8192*i)`
adds once, as the source does, where `tid + 32768 + 8192*i` adds twice."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import f32, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def repeat_affine_operand(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    acc = reg.scalar(u32, init=0)
    for j in range(12):
        idx = reg.scalar(u32)
        ptx.inst.add.u32(idx, tid, j * 128)
        acc += idx
    for j in range(6):
        acc ^= tid + (32768 + 8192 * j)
    for j in range(5):
        acc += tid - (8 + 4 * j)
    for j in range(4):
        acc += tid * (2 + 2 * j)
    ptx.ret()


KERNEL = repeat_affine_operand
ARGS = {}
