"""SwiGLU, elementwise: out = silu(gate) * up, silu(x) = x / (1 + 2^(-x log2 e))."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

LOG2E = 1.4426950408889634


@kernel(in_specs=(Tile("N", f32), Tile("N", f32)), out_specs=(Tile("N", f32),),
        grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch="sm_90a")
def swiglu(G, U, O, *, N=8192):
    pg, pu, po = ptx.global_ptrs(G, U, O)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    i = reg.scalar(u32)
    ptx.mad(u32, i, bid, 128, tid)
    off = reg.scalar(b64)
    ptx.mul(u32, off, i, 4, mode="wide")
    pg += off
    pu += off
    po += off
    g = reg.scalar(f32)
    u = reg.scalar(f32)
    ptx.ld(f32, g, ptx.addr(pg))
    ptx.ld(f32, u, ptx.addr(pu))
    scale = reg.scalar(f32, init=-LOG2E)
    t = reg.scalar(f32)
    ptx.mul(f32, t, g, scale)
    ptx.inst.ex2.approx.f32(t, t)
    one = reg.scalar(f32, init=1.0)
    ptx.add(f32, t, t, one)
    ptx.inst.rcp.approx.f32(t, t)
    ptx.mul(f32, t, t, g)
    ptx.mul(f32, t, t, u)
    ptx.st(f32, ptx.addr(po), t)
    ptx.ret()


KERNEL = swiglu
ARGS = {"N": 8192}
