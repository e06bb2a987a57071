"""slices: a long register list comes back as a comprehension over its array."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_100a")
def slices_lists(X, Y):
    f = reg.array(f32, 16)
    for k in range(16):
        ptx.mov(f32, f[k], 0.0)
    t = reg.scalar(u32, init=0)
    ptx.inst.tcgen05.st.sync.aligned._32x32b.x16.b32(ptx.addr(t), [f[k] for k in range(16)])
    ptx.ret()


KERNEL = slices_lists
ARGS = {}
