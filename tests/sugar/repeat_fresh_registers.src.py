"""repeat: a Python loop whose body allocates registers (reg.scalar on
every pass) rolls back up: each copy declares its own registers and
names them nowhere else, and pyptx's counter gives each pass the next
copy's names."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1), block=(128, 1, 1), arch="sm_90a")
def repeat_fresh_registers(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    acc = reg.scalar(f32, init=0.0)
    for j in range(6):
        t = reg.scalar(f32)
        ptx.ld(f32, t, ptx.addr(px, 64 * j))
        ptx.mul(f32, t, t, t)
        ptx.add(f32, acc, acc, t)
    for j in range(4):
        a = reg.scalar(f32)
        b = reg.scalar(f32)
        ptx.ld(f32, a, ptx.addr(px, 4 * j))
        ptx.ld(f32, b, ptx.addr(py, 4 * j))
        ptx.inst.fma.rn.f32(acc, a, b, acc)
    ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()

KERNEL = repeat_fresh_registers
ARGS = {}
