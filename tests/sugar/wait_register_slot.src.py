"""wait: `full.at(stage).wait(phase)` on a barrier array with a register
base.  pyptx computes the slot's address (shl, add) after the wait loop's
label; ptx.mbarrier.wait(ptx.addr(base + (stage << 3)), ...) would compute
it before the label, so the slot is what the call gets."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b64, f32, u32, pred

@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1,1,1), block=(128,1,1), arch="sm_90a")
def wait_register_slot(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    bars = smem.mbarrier(8, name="bars")
    sb = reg.scalar(u32)
    ptx.inst.mov.u32(sb, "bars")
    full = ptx.mbarrier.array(sb, 0, 4)
    ring = ptx.pipeline(4)
    n = reg.scalar(u32, init=8)
    p = reg.scalar(pred)
    with ptx.loop("kl", pred=p):
        stage, phase = ring.advance()
        full.at(stage).wait(phase)
        n -= 1
        ptx.setp("ne", u32, p, n, 0)
    ptx.ret()

KERNEL = wait_register_slot
ARGS = {}
