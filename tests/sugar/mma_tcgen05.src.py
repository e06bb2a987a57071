"""mma: tcgen05.mma with the accumulate predicate pyptx sets up for it
comes back as ptx.tcgen05.mma."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_100a")
def mma_tcgen05(X, Y):
    tmem = reg.scalar(u32, init=0)
    adesc = reg.scalar(b64, init=0)
    bdesc = reg.scalar(b64, init=0)
    idesc = reg.scalar(b32, init=0)
    acc = reg.scalar(u32, init=1)
    ptx.tcgen05.mma(tmem, adesc, bdesc, idesc, kind="f16", scale_d=acc)
    ptx.ret()


KERNEL = mma_tcgen05
ARGS = {}
