"""Column sums of an R x 128 f32 matrix streamed through one CTA with an
mbarrier ring.  Warp 4 elects one lane that TMA-loads 16-row tiles into
a four-slot ring in shared memory; warps 0-3, one column per thread, wait
for each slot to fill, add its 16 rows and hand the slot back.  Both
sides walk the ring with ptx.pipeline (slot index and phase bit, carried
in registers) and reach the barriers of the runtime slot with .at(stage):
`full` completes on the TMA's transaction bytes, `empty` on the 128
consumer arrivals."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b64, f32, pred, u32

COLS = 128
TROWS = 16
STAGES = 4
TILE_BYTES = TROWS * COLS * 4


@kernel(in_specs=(Tile("R", COLS, f32, tma_box=(TROWS, COLS)),), out_specs=(Tile(COLS, f32),),
        grid=(1, 1, 1), block=(160, 1, 1), arch="sm_90a")
def tma_ring(X, Y, *, R=4096):
    ring = smem.alloc(f32, (STAGES, TROWS, COLS))
    full = ptx.mbarrier.array(smem.mbarrier(STAGES), 0, STAGES)
    empty = ptx.mbarrier.array(smem.mbarrier(STAGES), 0, STAGES)
    tid = reg.from_(ptx.special.tid.x(), u32)
    warp = tid >> 5
    with ptx.if_(tid == 0):
        full.init_all(1)
        empty.init_all(4 * 32)
        ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    ring_base = reg.from_(ring.name, u32)

    with ptx.if_(warp < 4):
        # consumers: thread t owns column t
        (py,) = ptx.global_ptrs(Y)
        total = reg.scalar(f32, init=0.0)
        v = reg.scalar(f32)
        col = ring_base + (tid << 2)
        ring_state = ptx.pipeline(STAGES)
        for t in ptx.range_(0, R // TROWS):
            stage, phase = ring_state.advance()
            full.at(stage).wait(phase)
            slot = col + stage * TILE_BYTES
            for r in range(TROWS):
                ptx.ld(f32, v, ptx.addr(slot, r * COLS * 4), space="shared")
                ptx.add(f32, total, total, v)
            empty.at(stage).arrive()
        off = reg.scalar(b64)
        ptx.mul(u32, off, tid, 4, mode="wide")
        py += off
        ptx.st(f32, ptx.addr(py), total)
    with ptx.else_():
        # producer: one elected lane of warp 4 drives the TMA
        leader = reg.scalar(u32)
        elected = reg.scalar(pred)
        ptx.elect_sync(leader, elected, 0xFFFFFFFF)
        with ptx.if_(elected):
            desc = X.tma_desc()
            row = reg.scalar(u32, init=0)
            ring_state = ptx.pipeline(STAGES)
            for t in ptx.range_(0, R // TROWS):
                stage, phase = ring_state.advance()
                empty.at(stage).wait(phase ^ 1)
                filled = full.at(stage)
                filled.arrive_expect_tx(TILE_BYTES)
                ptx.cp.async_.bulk.tensor_2d(dst=ring_base + stage * TILE_BYTES, src=desc,
                                             coord=(0, row), mbar=filled)
                row += TROWS
    ptx.ret()


KERNEL = tma_ring
ARGS = {"R": 4096}
