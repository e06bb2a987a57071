# dslgen: seed 20240601, program 4 (tools/dslgen/run.py --show 20240601:4)
# class: unfaithful
# module: first difference at token 104 (token differs): input line 31: '.f32' vs printed line 31: '.b64'
#       input : ... %rd5 ; .reg .f32 %f5 ; ...
#       output: ... %rd5 ; .reg .b64 %rd6 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_90a')
def k4(X, W, B, Y, *, N=65536):
    pb, = ptx.global_ptrs(B)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    d = reg.scalar(s32, init=8192)
    idx = bid + tid
    k = idx.max(63)
    pos = tid + d
    pb3 = pb + (k + bid)
    x = reg.scalar(f32)
    acc2 = reg.scalar(f32)
    boff = reg.scalar(u64)
    pb5 = pb3 + boff
    x2 = reg.scalar(f32)
    s2 = reg.scalar(f32)
    parity = reg.scalar(u32, init=0)
    for i2 in range(2):
        v2 = reg.scalar(f32)
        ptx.inst.fma.rn.f32(x, x2, acc2, x)
        ptx.inst.st.global_.u32(ptx.addr(pb, 8), idx)
        pb9 = pb + 1024 * (i2 + 1)
        ptx.inst.ld.global_.u32(pos, ptx.addr(pb5, 8))
        ptx.inst.st.global_.u32(ptx.addr(pb9, 256 + i2 * 16), parity)
        ptx.inst.st.global_.f32(ptx.addr(pb9, i2 * 16), s2)
KERNEL = k4
ARGS = {}
