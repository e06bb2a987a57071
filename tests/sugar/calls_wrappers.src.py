"""calls: instructions a typed wrapper emits come back as that wrapper."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def calls_wrappers(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    a = reg.scalar(f32)
    b = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a, ptx.addr(px))
    ptx.inst.mul.f32(b, a, a)
    ptx.inst.fma.rn.f32(b, a, b, a)
    ptx.inst.st.global_.f32(ptx.addr(py), b)
    ptx.inst.bar.sync(0)
    ptx.ret()


KERNEL = calls_wrappers
ARGS = {}
