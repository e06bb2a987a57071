"""expr: a chain of single-use temporaries reads as one expression."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def expr_chain(X, Y):
    tid = reg.from_(ptx.special.tid.x(), u32)
    a = reg.scalar(u32)
    b = reg.scalar(u32)
    c = reg.scalar(u32)
    ptx.inst.shl.b32(a, tid, 2)
    ptx.inst.and_.b32(b, a, 1020)
    ptx.inst.add.u32(c, b, 64)
    ptx.inst.st.global_.u32(ptx.addr("Y"), c)
    ptx.ret()


KERNEL = expr_chain
ARGS = {}
