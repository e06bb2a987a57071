"""GELU (tanh approximation) over a bf16 vector whose length n is a
runtime argument: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
computed in f32.  Each thread takes two neighbouring elements: a pair
entirely in range goes through one 32-bit load and store, unpacked to
bf16 halves; the pair that straddles n is done element by element under
a bounds check."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b16, b32, b64, bf16, f32, u32

THREADS = 256
PER_CTA = 2 * THREADS
SQRT_2_OVER_PI = 0.7978845608028654


@kernel(in_specs=(Tile("N", bf16),), out_specs=(Tile("N", bf16),),
        grid=lambda N: ((N + PER_CTA - 1) // PER_CTA, 1, 1), block=(THREADS, 1, 1),
        raw_params=[("u32", "n")], arch="sm_90a")
def gelu_bf16(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    n = ptx.param(u32, "n")
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    i = reg.scalar(u32)
    ptx.mad(u32, i, bid, PER_CTA, tid << 1)
    off = reg.scalar(b64)
    ptx.mul(u32, off, i, 2, mode="wide")
    px += off
    py += off

    c1 = reg.scalar(f32, init=0.044715)
    k0 = reg.scalar(f32, init=SQRT_2_OVER_PI)
    one = reg.scalar(f32, init=1.0)
    half = reg.scalar(f32, init=0.5)
    t = reg.scalar(f32)
    h = reg.scalar(f32)

    def gelu(x):
        ptx.mul(f32, t, x, x)
        ptx.inst.fma.rn.f32(t, t, c1, one)
        ptx.mul(f32, t, t, x)
        ptx.mul(f32, t, t, k0)
        ptx.inst.tanh.approx.f32(t, t)
        ptx.mul(f32, h, x, half)
        ptx.inst.fma.rn.f32(x, h, t, h)

    lo = reg.scalar(b16)
    hi = reg.scalar(b16)
    x0 = reg.scalar(f32)
    x1 = reg.scalar(f32)
    last = i + 1
    with ptx.if_(last < n):
        pair = reg.scalar(b32)
        ptx.ld(b32, pair, ptx.addr(px))
        ptx.mov(b32, [lo, hi], pair)
        ptx.cvt(f32, bf16, x0, lo)
        ptx.cvt(f32, bf16, x1, hi)
        gelu(x0)
        gelu(x1)
        ptx.cvt(bf16, f32, lo, x0, rounding="rn")
        ptx.cvt(bf16, f32, hi, x1, rounding="rn")
        ptx.mov(b32, pair, [lo, hi])
        ptx.st(b32, ptx.addr(py), pair)
    with ptx.else_():
        with ptx.if_(i < n):
            ptx.ld(b16, lo, ptx.addr(px))
            ptx.cvt(f32, bf16, x0, lo)
            gelu(x0)
            ptx.cvt(bf16, f32, lo, x0, rounding="rn")
            ptx.st(b16, ptx.addr(py), lo)
    ptx.ret()


KERNEL = gelu_bf16
ARGS = {"N": 4096}
