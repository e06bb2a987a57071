"""decls: 64-bit pointer math with a 32-bit register, which pyptx's
operator widens first (cvt.u64.u32 into a register of its own, then
add.s64 or sub.s64), comes back as the operator: x_ptr += off.
"""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32, s32, u64

@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1), block=(128, 1, 1), arch="sm_90a")
def decls_pointer_offset(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    off = tid << 2
    px += off
    py -= off
    k = reg.scalar(s32, init=-4)
    q = py - k
    u = reg.scalar(u64, init=64)
    v = u + tid
    u += tid
    x = reg.scalar(f32)
    ptx.ld(f32, x, ptx.addr(px))
    ptx.st(f32, ptx.addr(q), x)
    ptx.st(f32, ptx.addr(v), x)
    ptx.ret()

KERNEL = decls_pointer_offset
ARGS = {}
