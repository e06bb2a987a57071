"""kloop: a body that allocates nothing is the same on every call, and
ptx.kloop with unroll=1 folds back into that call with its tail."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import f32, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def kloop_same_body(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    n = reg.from_(ptx.special.ctaid.x(), u32)
    acc = reg.scalar(f32, init=0.0)
    x = reg.scalar(f32)

    def step():
        ptx.ld(f32, x, ptx.addr(px))
        ptx.add(f32, acc, acc, x)

    ptx.kloop(n, unroll=1, body=step)
    ptx.st(f32, ptx.addr(py), acc)
    ptx.ret()


KERNEL = kloop_same_body
ARGS = {}
