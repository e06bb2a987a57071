"""decls: each register declared where pyptx allocates it, with init=,
reg.from_ and ptx.global_ptrs recovered."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def decls_allocations(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    acc = reg.scalar(f32, init=0.0)
    x = reg.scalar(f32)
    off = reg.scalar(b64)
    ptx.mul(u32, off, tid, 4, mode="wide")
    px += off
    ptx.ld(f32, x, ptx.addr(px))
    ptx.add(f32, acc, acc, x)
    py += off
    ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()


KERNEL = decls_allocations
ARGS = {}
