"""repeat: a Python loop whose body writes pyptx's operators rolls back up
with the operators ("expr" makes them before "repeat" rolls): into an
element with a varying constant, parenthesized so that Python adds it as
one number (r[4 + i] = r[i] + (4 + 8*i)), in place (r[16] += r[1]), and
a chain folded into one expression.  (Only in a kernel written in pyptx,
one with a register pyptx allocated itself: here the f32 scalar.)"""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b32, f32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def repeat_operators(X, Y):
    r = reg.array(b32, 24, name="%r")
    ptx.inst.mov.u32(r[0], 1)
    ptx.inst.mov.u32(r[1], 3)
    ptx.inst.mov.u32(r[2], 5)
    ptx.inst.mov.u32(r[3], 7)
    for j in range(4):
        r[4 + j] = r[j] + (4 + 8 * j)
    for j in range(4):
        r[8 + j] = r[4 + j] & 255
        r[12 + j] = r[8 + j] ^ r[j]
    for _ in range(5):
        r[16] += r[1]
    x = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(x, r[16])
    ptx.ret()


KERNEL = repeat_operators
ARGS = {}
