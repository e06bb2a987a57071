"""kloop: ptx.kloop with unroll=1 still emits its tail (`if_(rem != 0)`
around one body that never runs).  The body allocates registers on
every call, so the copies differ: they stay as traced, not folded."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def kloop_unroll1(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    k_tiles = reg.from_(ptx.special.ctaid.x(), u32)
    cursor = reg.scalar(u32, init=0)
    acc = reg.scalar(f32, init=0.0)
    x = reg.scalar(f32)

    def body_step(p=cursor):
        off = reg.scalar(b64)
        ptx.mul(u32, off, p, 4, mode="wide")
        ptx.ld(f32, x, ptx.addr(px + off))
        ptx.add(f32, acc, acc, x)
        p += 1

    ptx.kloop(k_tiles, unroll=1, loop_label="k_loop", body=body_step)
    ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()


KERNEL = kloop_unroll1
ARGS = {}
