"""inits: mbarrier.init of consecutive slots comes back as init_all.  (Four
or more slots are rolled into a for loop by "repeat" first.)"""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, f32, pred, s32, u32, u64


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def inits_barriers(X, Y):
    bars = smem.mbarrier(3, name="bars")
    full = ptx.mbarrier.array(bars, 0, 3)
    full.init_all(1)
    ptx.ret()


KERNEL = inits_barriers
ARGS = {}
