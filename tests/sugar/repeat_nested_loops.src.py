"""repeat: nested Python loops roll back up, the inner loop inside the
outer one's body, its index affine in both variables (4*j + 256*i); a
loop inside ptx.if_ rolls in the if_'s body."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1), block=(128, 1, 1), arch="sm_90a")
def repeat_nested_loops(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    acc = reg.scalar(f32, init=0.0)
    with ptx.if_(tid < 64):
        for j in range(4):
            t = reg.scalar(f32)
            ptx.ld(f32, t, ptx.addr(px, 64 * j))
            ptx.add(f32, acc, acc, t)
    for i in range(3):
        for j in range(4):
            t = reg.scalar(f32)
            ptx.ld(f32, t, ptx.addr(py, 256 * i + 4 * j))
            ptx.add(f32, acc, acc, t)
        ptx.bar.sync(0)
    ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()

KERNEL = repeat_nested_loops
ARGS = {}
