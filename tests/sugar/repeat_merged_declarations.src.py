"""repeat: a Python loop whose body declares registers with a value (the
merged declarations of "decls": reg.from_, reg.scalar(init=), an operator
x = a OP b) rolls back up: each copy's register pairs with the first
copy's, as a plain reg.scalar does, and the loop body writes the first
copy's statement with the varying source (here the shift)."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import f32, s32, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def repeat_merged_declarations(X, Y):
    for w in range(8):
        rem = reg.from_(ptx.special.nctaid.x(), s32)
    tid = reg.from_(ptx.special.tid.x(), u32)
    for j in range(6):
        t = reg.scalar(u32, init=7)
        part = tid >> (j + 1)
    for j in range(5):
        lane = reg.from_(ptx.special.laneid(), u32)
        acc = lane + (3 + 2 * j)
    ptx.ret()


KERNEL = repeat_merged_declarations
ARGS = {}
