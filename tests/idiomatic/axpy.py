"""y = a x + y over N floats, a a runtime scalar.  The loop is
grid-stride, and its trip count depends on the launch grid, so each
thread computes it at run time, (N - 1 - i) / stride + 1, and runs it
with ptx.kloop: a main loop unrolled by four plus a peeled tail."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

THREADS = 256


@kernel(in_specs=(Tile("N", f32),), out_specs=(Tile("N", f32),),
        grid=lambda N: (min(N // THREADS, 1024), 1, 1), block=(THREADS, 1, 1),
        raw_params=[("f32", "a")], arch="sm_90a")
def axpy(X, Y, *, N=1 << 22):
    px, py = ptx.global_ptrs(X, Y)
    a = ptx.param(f32, "a")
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    nblk = reg.from_(ptx.special.nctaid.x(), u32)
    i = reg.scalar(u32)
    ptx.mad(u32, i, bid, THREADS, tid)
    stride = nblk * THREADS
    last = reg.scalar(u32, init=N - 1)
    trips = last - i
    ptx.inst.div.u32(trips, trips, stride)
    trips += 1

    off = reg.scalar(b64)
    ptx.mul(u32, off, i, 4, mode="wide")
    px += off
    py += off
    step = reg.scalar(b64)
    ptx.mul(u32, step, stride, 4, mode="wide")
    x = reg.scalar(f32)
    y = reg.scalar(f32)

    def body():
        nonlocal px, py
        ptx.ld(f32, x, ptx.addr(px))
        ptx.ld(f32, y, ptx.addr(py))
        ptx.inst.fma.rn.f32(y, a, x, y)
        ptx.st(f32, ptx.addr(py), y)
        px += step
        py += step

    ptx.kloop(trips, unroll=4, body=body, loop_label="axpy_main")
    ptx.ret()


KERNEL = axpy
ARGS = {"N": 1 << 22}
