# dslgen: seed 20240601, program 1595 (tools/dslgen/run.py --show 20240601:1595)
# class: unfaithful
# module: first difference at token 44 (token differs): input line 16: '.f32' vs printed line 16: '.s32'
#       input : ... %r1 ; .reg .f32 %f2 ; ...
#       output: ... %r1 ; .reg .s32 %r2 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k1595(X, W, B, Y, *, N=65536):
    step = reg.scalar(s32)
    for i in range(8):
        t = reg.scalar(f32)
        n = step if i == 0 else step + i * 4096
KERNEL = k1595
ARGS = {}
