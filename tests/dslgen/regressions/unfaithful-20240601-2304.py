# dslgen: seed 20240601, program 2304 (tools/dslgen/run.py --show 20240601:2304)
# class: unfaithful
# module: first difference at token 76 (token differs): input line 24: '.s32' vs printed line 24: '.b64'
#       input : ... %rd5 ; .reg .s32 %r2 ; ...
#       output: ... %rd5 ; .reg .b64 %rd6 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k2304(X, W, B, Y, *, N=1048576):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    v = reg.scalar(f32)
    b = reg.scalar(f32)
    d = reg.scalar(s32)
    flags = reg.scalar(b32)
    x = reg.scalar(f32)
    ptx.inst.fma.rn.f32(x, b, v, v)
    for i in range(4):
        t = reg.scalar(f32)
        w = px + pb + 8192 * (i + 1)
        delta = d * (i * 128) & flags
KERNEL = k2304
ARGS = {}
